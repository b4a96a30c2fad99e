# Finds softmaxlab's dependencies. Every one comes from a Debian 12 package (see
# third_party/README.md) or from the CUDA toolkit; nothing is downloaded at build time.
#
# Sets SML_HAVE_CUPTI, SML_HAVE_CAIRO, SML_HAVE_GUI and imported targets:
#   sml::json  sml::cli11  sml::cairo  sml::imgui  sml::md4c  sml::stb
find_package(PkgConfig QUIET)

# --- header-only: nlohmann-json3-dev, libcli11-dev ------------------------------------------
find_path(SML_JSON_INCLUDE nlohmann/json.hpp REQUIRED)
add_library(sml_json INTERFACE)
target_include_directories(sml_json SYSTEM INTERFACE ${SML_JSON_INCLUDE})
add_library(sml::json ALIAS sml_json)

find_path(SML_CLI11_INCLUDE CLI/CLI.hpp REQUIRED)
add_library(sml_cli11 INTERFACE)
target_include_directories(sml_cli11 SYSTEM INTERFACE ${SML_CLI11_INCLUDE})
add_library(sml::cli11 ALIAS sml_cli11)

# --- CUPTI (CUDA toolkit) -------------------------------------------------------------------
set(SML_HAVE_CUPTI OFF)
if(SML_WITH_CUPTI)
  find_path(SML_CUPTI_INCLUDE cupti_range_profiler.h
            HINTS ${CUDAToolkit_INCLUDE_DIRS} ${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/include)
  find_library(SML_CUPTI_LIB cupti
               HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/lib64)
  find_library(SML_NVPERF_HOST_LIB nvperf_host
               HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/lib64)
  if(SML_CUPTI_INCLUDE AND SML_CUPTI_LIB AND SML_NVPERF_HOST_LIB)
    set(SML_HAVE_CUPTI ON)
    add_library(sml_cupti INTERFACE)
    target_include_directories(sml_cupti SYSTEM INTERFACE ${SML_CUPTI_INCLUDE})
    target_link_libraries(sml_cupti INTERFACE ${SML_CUPTI_LIB} ${SML_NVPERF_HOST_LIB})
    add_library(sml::cupti ALIAS sml_cupti)
  else()
    message(WARNING "CUPTI Range Profiler not found (needs CUDA 12.6+): hardware counters off")
  endif()
endif()

# --- Cairo: libcairo2-dev --------------------------------------------------------------------
set(SML_HAVE_CAIRO OFF)
if(NOT SML_WITH_CAIRO STREQUAL "OFF" AND PkgConfig_FOUND)
  pkg_check_modules(SML_CAIRO QUIET IMPORTED_TARGET cairo)
  if(SML_CAIRO_FOUND)
    set(SML_HAVE_CAIRO ON)
    add_library(sml::cairo ALIAS PkgConfig::SML_CAIRO)
  endif()
endif()
if(SML_WITH_CAIRO STREQUAL "ON" AND NOT SML_HAVE_CAIRO)
  message(FATAL_ERROR "SML_WITH_CAIRO=ON but Cairo was not found: apt-get install libcairo2-dev")
endif()

# --- stb (libstb-dev): stb_image_write for screenshots ---------------------------------------
find_path(SML_STB_INCLUDE stb_image_write.h PATH_SUFFIXES stb)
find_library(SML_STB_LIB stb)

# --- GUI: libimgui-dev (1.86, GLFW + OpenGL3 backends inside libimgui.a), libglfw3-dev, md4c -
set(SML_HAVE_GUI OFF)
if(NOT SML_WITH_GUI STREQUAL "OFF")
  find_path(SML_IMGUI_INCLUDE imgui.h PATH_SUFFIXES imgui)
  find_library(SML_IMGUI_LIB imgui)
  find_package(glfw3 QUIET)
  find_package(OpenGL QUIET)
  find_path(SML_MD4C_INCLUDE md4c.h)
  find_library(SML_MD4C_LIB md4c)
  if(SML_IMGUI_INCLUDE AND SML_IMGUI_LIB AND glfw3_FOUND AND OpenGL_FOUND AND SML_STB_LIB
     AND SML_MD4C_LIB)
    set(SML_HAVE_GUI ON)
    add_library(sml_imgui INTERFACE)
    target_include_directories(sml_imgui SYSTEM INTERFACE ${SML_IMGUI_INCLUDE}
                               ${SML_IMGUI_INCLUDE}/backends ${SML_STB_INCLUDE})
    # ImGui's font code lives in libstb on Debian, so -lstb must follow -limgui.
    target_link_libraries(sml_imgui INTERFACE ${SML_IMGUI_LIB} ${SML_STB_LIB} glfw
                          OpenGL::GL ${CMAKE_DL_LIBS})
    add_library(sml::imgui ALIAS sml_imgui)
    add_library(sml_md4c INTERFACE)
    target_include_directories(sml_md4c SYSTEM INTERFACE ${SML_MD4C_INCLUDE})
    target_link_libraries(sml_md4c INTERFACE ${SML_MD4C_LIB})
    add_library(sml::md4c ALIAS sml_md4c)
  endif()
endif()
if(SML_WITH_GUI STREQUAL "ON" AND NOT SML_HAVE_GUI)
  message(FATAL_ERROR "SML_WITH_GUI=ON but the GUI libraries were not found: apt-get install "
                      "libimgui-dev libglfw3-dev libstb-dev libmd4c-dev")
endif()
