# Run with: cmake -DROOT=<repo> -P tests/scripts/check_layering.cmake
# The core (kernels/ and core/) must build where only the CUDA toolkit is present: no ImGui,
# GLFW or OpenGL include may appear there. Fails with the offending file and line.
file(GLOB_RECURSE files ${ROOT}/core/*.h ${ROOT}/core/*.cpp ${ROOT}/core/*.cu
                        ${ROOT}/kernels/*.h ${ROOT}/kernels/*.cpp ${ROOT}/kernels/*.cu)
set(bad "")
foreach(f ${files})
  file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](imgui|GLFW|GL/|backends/)")
  foreach(l ${lines})
    string(APPEND bad "\n  ${f}: ${l}")
  endforeach()
endforeach()
list(LENGTH files n)
if(n LESS 10)
  message(FATAL_ERROR "layering check found only ${n} core files under ${ROOT}: wrong ROOT?")
endif()
if(bad)
  message(FATAL_ERROR "GUI includes in the core library (move them to app/viewer):${bad}")
endif()
message(STATUS "layering ok: ${n} core files, no GUI includes")
