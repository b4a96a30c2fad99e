# sml_viewer_model: the viewer's logic with no window and no ImGui (formatting, source
# tokenizer and regions, step navigation, metric rows, settings, command line, the GPU worker).
# Included by app/viewer/CMakeLists.txt and, where the GUI is not built (the GPU machine), by
# tests/viewer.cmake, so the view-model tests and the worker build everywhere the core builds.
# model/*_gpu.cpp build only with the CUDA toolkit, model/*_nogpu.cpp only without.
if(NOT TARGET sml_viewer_model)
  set(_sml_vm_dir ${PROJECT_SOURCE_DIR}/app/viewer/model)
  file(GLOB _sml_vm_sources CONFIGURE_DEPENDS ${_sml_vm_dir}/*.cpp)
  if(SML_HAVE_CUDA)
    list(FILTER _sml_vm_sources EXCLUDE REGEX "_nogpu\\.cpp$")
  else()
    list(FILTER _sml_vm_sources EXCLUDE REGEX "_gpu\\.cpp$")
  endif()
  add_library(sml_viewer_model STATIC ${_sml_vm_sources})
  target_include_directories(sml_viewer_model PUBLIC ${PROJECT_SOURCE_DIR})
  find_package(Threads REQUIRED)
  target_link_libraries(sml_viewer_model PUBLIC sml_core sml::cli11 sml::json Threads::Threads)
  if(SML_HAVE_CUDA)
    target_link_libraries(sml_viewer_model PUBLIC sml_gpu sml_lab)
  endif()
endif()
