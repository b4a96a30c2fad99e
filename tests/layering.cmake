# The core library has no GUI dependency, checked on sources (includes) and on the link line.
add_test(NAME core_has_no_gui_includes
         COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} -P
                 ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check_layering.cmake)
set_tests_properties(core_has_no_gui_includes PROPERTIES LABELS cpu)
get_target_property(_sml_core_libs sml_core LINK_LIBRARIES)
foreach(lib ${_sml_core_libs})
  if(lib MATCHES "imgui|glfw|OpenGL")
    message(FATAL_ERROR "sml_core links ${lib}: the core must not depend on the GUI")
  endif()
endforeach()
