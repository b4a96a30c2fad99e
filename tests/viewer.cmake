# Viewer tests (included by tests/CMakeLists.txt).
#
#   test_viewmodel*      view-model logic with no window (links sml_viewer_model)   label cpu
#   test_viewmodel_gpu   the Run panel's worker + jobs on a real GPU, no window       label gpu
#   viewer_screenshot_*  the real viewer under Xvfb + Mesa in replay mode: one screenshot per
#                        lesson step (plus Chinese, light theme, a corrupt session), each checked
#                        for size and distinct colours by png_check                 label cpu
#   viewer_cli_*         argument and no-display errors: non-zero exit, one-line reason
# Without the viewer target or xvfb-run, one test says why and is reported as skipped.

# The view-model library builds wherever the core builds (also without GUI packages).
include(${PROJECT_SOURCE_DIR}/app/viewer/model.cmake)
file(GLOB _sml_vm_tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/test_viewmodel*.cpp)
foreach(src ${_sml_vm_tests})
  get_filename_component(name ${src} NAME_WE)
  if(TARGET ${name})
    target_link_libraries(${name} PRIVATE sml_viewer_model)
  endif()
endforeach()

find_program(SML_XVFB_RUN xvfb-run)
# Every screenshot test runs the viewer through this: a private X server of the given size, and
# the viewer's own exit status (tests/scripts/xvfb.sh says why not xvfb-run's).
set(_xvfb "sh '${CMAKE_CURRENT_SOURCE_DIR}/scripts/xvfb.sh' '${SML_XVFB_RUN}'")
set(_sml_viewer_skip "")
if(NOT TARGET softmaxlab)
  set(_sml_viewer_skip "the viewer is not built (GUI libraries missing: see third_party/README.md)")
elseif(NOT SML_XVFB_RUN)
  set(_sml_viewer_skip "xvfb-run not found (apt-get install xvfb xauth)")
endif()
if(_sml_viewer_skip)
  add_test(NAME viewer_screenshots_skipped
           COMMAND sh -c "echo 'viewer screenshot tests skipped: ${_sml_viewer_skip}'; exit 77")
  set_tests_properties(viewer_screenshots_skipped PROPERTIES LABELS cpu SKIP_RETURN_CODE 77)
  return()
endif()

add_executable(png_check ${CMAKE_CURRENT_SOURCE_DIR}/png_check.cpp)
target_include_directories(png_check SYSTEM PRIVATE ${SML_STB_INCLUDE})
target_link_libraries(png_check PRIVATE ${SML_STB_LIB})
add_executable(viewer_fixture_session ${CMAKE_CURRENT_SOURCE_DIR}/viewer_fixture_session.cpp)
target_link_libraries(viewer_fixture_session PRIVATE sml_core sml_test_support)

set(_shots ${CMAKE_BINARY_DIR}/viewer-screenshots)
set(_fixture ${_shots}/synthetic-session.json)
set(_corrupt ${_shots}/corrupt-session.json)
set(_other_gpu ${_shots}/synthetic-other-gpu.json)
set(_other_fp16 ${_shots}/synthetic-other-gpu-fp16.json)
add_test(NAME viewer_fixture_setup
         COMMAND sh -c "mkdir -p '${_shots}' && '$<TARGET_FILE:viewer_fixture_session>' '${_fixture}' && '$<TARGET_FILE:viewer_fixture_session>' '${_corrupt}' --corrupt && '$<TARGET_FILE:viewer_fixture_session>' '${_other_gpu}' --other-gpu && '$<TARGET_FILE:viewer_fixture_session>' '${_other_fp16}' --other-gpu-fp16")
set_tests_properties(viewer_fixture_setup PROPERTIES LABELS cpu FIXTURES_SETUP viewer_session)

# One screenshot test: run the viewer under a private X server, then check the PNG.
# A screen of text, code and a chart has thousands of colours; a blank one has a handful.
function(sml_viewer_shot name args)
  set(png ${_shots}/${name}.png)
  add_test(NAME viewer_screenshot_${name}
           COMMAND sh -c "${_xvfb} 1600x1000 '$<TARGET_FILE:softmaxlab>' --no-settings --size 1600x1000 --frames 4 --screenshot '${png}' ${args} && '$<TARGET_FILE:png_check>' '${png}' 1600 1000 500")
  # xvfb-run -a picks a free display, but two starting at once can race for the same one.
  set_tests_properties(viewer_screenshot_${name} PROPERTIES LABELS cpu TIMEOUT 120
                       FIXTURES_REQUIRED viewer_session RESOURCE_LOCK xvfb)
endfunction()

# Every lesson step, in English (the step count comes from the lesson files on disk).
file(GLOB _sml_steps CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/lessons/en/[0-9][0-9]-*.md)
list(LENGTH _sml_steps _sml_step_count)
if(_sml_step_count EQUAL 0)
  message(WARNING "no lessons in lessons/en: only the non-lesson viewer screenshots are tested")
else()
  math(EXPR _last "${_sml_step_count} - 1")
  foreach(k RANGE ${_last})
    sml_viewer_shot(step${k}_en "--lesson ${k} --session '${_fixture}' --theme dark --lang en")
  endforeach()
endif()
sml_viewer_shot(step2_zh_light "--lesson 2 --session '${_fixture}' --theme light --lang zh")

# A projector: 1280x720 with text at 1.5x, in predict mode before and after the reveal, in
# Chinese, and with one panel given the window (scripts/teach-screenshots.sh makes the full set).
function(sml_viewer_projector_shot name args)
  set(png ${_shots}/${name}.png)
  add_test(NAME viewer_screenshot_${name}
           COMMAND sh -c "${_xvfb} 1280x720 '$<TARGET_FILE:softmaxlab>' --no-settings --size 1280x720 --frames 6 --text-scale 1.5 --screenshot '${png}' ${args} && '$<TARGET_FILE:png_check>' '${png}' 1280 720 300")
  set_tests_properties(viewer_screenshot_${name} PROPERTIES LABELS cpu TIMEOUT 120
                       FIXTURES_REQUIRED viewer_session RESOURCE_LOCK xvfb)
endfunction()
sml_viewer_projector_shot(projector_step2_predict "--lesson 2 --session '${_fixture}'")
# Step 5's question is long: the card scrolls the lesson text so Check and Reveal are not cut off.
sml_viewer_projector_shot(projector_step5_predict "--lesson 5 --session '${_fixture}'")
foreach(_t projector_step2_predict projector_step5_predict)
  set_tests_properties(viewer_screenshot_${_t} PROPERTIES
                       PASS_REGULAR_EXPRESSION "predict card: Reveal button in view.*ok .*${_t}.png"
                       FAIL_REGULAR_EXPRESSION "cut off")
endforeach()
sml_viewer_projector_shot(projector_step2_revealed_zh
                          "--lesson 2 --session '${_fixture}' --lang zh --guess 85% --reveal")
sml_viewer_projector_shot(projector_step5_chart "--lesson 5 --session '${_fixture}' --zoom chart --predict off")
# The PTX tab with the step's PTX anchors marked (warp: ld.global.v4.f32, shfl.sync.bfly), and
# the SASS tab beside its source with a hovered instruction lighting its line; best's SASS (one
# of 216 entry points); step 2's Triton tutorial listing (or its "not recorded yet" note).
sml_viewer_shot(step3_ptx "--lesson 3 --code ptx --session '${_fixture}'")
# Compare GPUs: a second (synthetic) session drawn dashed over the first and added to the table.
sml_viewer_shot(compare "--lesson 7 --session '${_fixture}' --compare '${_other_gpu}'")
# A second session of another dtype: a banner says why it is not compared, and the viewer runs on.
add_test(NAME viewer_screenshot_compare_other_dtype
         COMMAND sh -c "${_xvfb} 1600x1000 '$<TARGET_FILE:softmaxlab>' --no-settings --size 1600x1000 --screenshot '${_shots}/compare_other_dtype.png' --session '${_fixture}' --compare '${_other_fp16}' 2>&1 && '$<TARGET_FILE:png_check>' '${_shots}/compare_other_dtype.png' 1600 1000 500")
set_tests_properties(viewer_screenshot_compare_other_dtype PROPERTIES LABELS cpu TIMEOUT 120
                     FIXTURES_REQUIRED viewer_session RESOURCE_LOCK xvfb
                     PASS_REGULAR_EXPRESSION "banner: Cannot compare: .*has no fp32 points \\(it has: fp16\\).*ok .*compare_other_dtype.png")
# The mouse rests on an instruction of the SASS pane (x 700 is inside it at 1600x1000): the line
# above the listing names what it links to, "0070 EXIT <- warp_softmax.cu:69".
sml_viewer_shot(step3_sass_hover "--lesson 3 --code sass --mouse 700,620 --session '${_fixture}'")
set_tests_properties(viewer_screenshot_step3_sass_hover PROPERTIES
                     PASS_REGULAR_EXPRESSION "code hover: [0-9a-f]+ [A-Z].* <- warp_softmax\\.cu:[0-9]+.*ok .*step3_sass_hover.png")
sml_viewer_shot(step8_sass "--lesson 8 --code sass --session '${_fixture}'")
sml_viewer_shot(step2_triton "--lesson 2 --code triton --session '${_fixture}'")
# A corrupt session: an in-app error banner (echoed to stderr in screenshot mode); the viewer
# still renders the picture, then exits 1 because the session it was given did not open.
add_test(NAME viewer_screenshot_corrupt_session
         COMMAND sh -c "${_xvfb} 1600x1000 '$<TARGET_FILE:softmaxlab>' --no-settings --size 1600x1000 --screenshot '${_shots}/corrupt_session.png' --session '${_corrupt}' 2>&1; test $? -eq 1 && '$<TARGET_FILE:png_check>' '${_shots}/corrupt_session.png' 1600 1000 500")
set_tests_properties(viewer_screenshot_corrupt_session PROPERTIES LABELS cpu TIMEOUT 120
                     FIXTURES_REQUIRED viewer_session RESOURCE_LOCK xvfb
                     PASS_REGULAR_EXPRESSION "banner: Cannot open session:.*ok .*corrupt_session.png")
# The same two refusals in Chinese: the viewer opens --session and --compare after the language
# is set, so their banners read in it.
add_test(NAME viewer_screenshot_corrupt_session_zh
         COMMAND sh -c "${_xvfb} 1600x1000 '$<TARGET_FILE:softmaxlab>' --no-settings --size 1600x1000 --lang zh --screenshot '${_shots}/corrupt_session_zh.png' --session '${_corrupt}' 2>&1; test $? -eq 1 && '$<TARGET_FILE:png_check>' '${_shots}/corrupt_session_zh.png' 1600 1000 500")
set_tests_properties(viewer_screenshot_corrupt_session_zh PROPERTIES LABELS cpu TIMEOUT 120
                     FIXTURES_REQUIRED viewer_session RESOURCE_LOCK xvfb
                     PASS_REGULAR_EXPRESSION "banner: 无法打开会话：.*ok .*corrupt_session_zh.png")
add_test(NAME viewer_screenshot_compare_other_dtype_zh
         COMMAND sh -c "${_xvfb} 1600x1000 '$<TARGET_FILE:softmaxlab>' --no-settings --size 1600x1000 --lang zh --screenshot '${_shots}/compare_other_dtype_zh.png' --session '${_fixture}' --compare '${_other_fp16}' 2>&1 && '$<TARGET_FILE:png_check>' '${_shots}/compare_other_dtype_zh.png' 1600 1000 500")
set_tests_properties(viewer_screenshot_compare_other_dtype_zh PROPERTIES LABELS cpu TIMEOUT 120
                     FIXTURES_REQUIRED viewer_session RESOURCE_LOCK xvfb
                     PASS_REGULAR_EXPRESSION "banner: 无法对比：.*没有 fp32 数据点.*ok .*compare_other_dtype_zh.png")

# No GPU and no --session: the viewer opens the newest recorded session by itself and says so.
# CUDA_VISIBLE_DEVICES hides any GPU, so this is the learner-without-a-GPU path everywhere.
file(GLOB _sml_recorded CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/assets/sessions/*.json)
if(_sml_recorded)
  add_test(NAME viewer_screenshot_recorded_replay
           COMMAND sh -c "CUDA_VISIBLE_DEVICES= ${_xvfb} 1600x1000 '$<TARGET_FILE:softmaxlab>' --no-settings --size 1600x1000 --lesson 1 --screenshot '${_shots}/recorded_replay.png' 2>&1 && '$<TARGET_FILE:png_check>' '${_shots}/recorded_replay.png' 1600 1000 500")
  set_tests_properties(viewer_screenshot_recorded_replay PROPERTIES LABELS cpu TIMEOUT 120
                       RESOURCE_LOCK xvfb
                       PASS_REGULAR_EXPRESSION "banner: Replaying a session recorded on .*Run is disabled: .*ok .*recorded_replay.png"
                       FAIL_REGULAR_EXPRESSION "Cannot open session")
  # The same in Chinese: the banner's hover text (why Run is off, what to do) is Chinese too.
  add_test(NAME viewer_screenshot_recorded_replay_zh
           COMMAND sh -c "CUDA_VISIBLE_DEVICES= ${_xvfb} 1600x1000 '$<TARGET_FILE:softmaxlab>' --no-settings --size 1600x1000 --lesson 1 --lang zh --screenshot '${_shots}/recorded_replay_zh.png' 2>&1 && '$<TARGET_FILE:png_check>' '${_shots}/recorded_replay_zh.png' 1600 1000 500")
  set_tests_properties(viewer_screenshot_recorded_replay_zh PROPERTIES LABELS cpu TIMEOUT 120
                       RESOURCE_LOCK xvfb
                       PASS_REGULAR_EXPRESSION "banner: 正在回放.* -- .*ok .*recorded_replay_zh.png"
                       FAIL_REGULAR_EXPRESSION "Cannot open session|-- (this build|no NVIDIA|no CUDA|no usable|install|check nvidia)")
  # The recorded per-line counters in replay: warp's SASS at N = 1024 has a count per
  # instruction (NVRTC's build is nvcc's there) and per line of the source beside it; smem's CUDA
  # tab has them per line, while its SASS listing (another build) gets none and says why; naive's
  # SASS opens on row_max, the function launched first and the one with counters.
  foreach(_case "gutter_warp_sass|--lesson 3 --kernel warp --cols 1024 --code sass|code counters: inst_executed on [1-9][0-9]+ lines, [1-9][0-9][0-9]+ instructions -- per-line counters: NVIDIA H100"
                "gutter_smem_cuda|--lesson 5 --kernel smem --cols 4096|code counters: inst_executed on [1-9][0-9]+ lines, 0 instructions -- per-line counters: NVIDIA H100.* 4096 fp32"
                "gutter_smem_sass|--lesson 5 --kernel smem --cols 4096 --code sass|code counters: inst_executed on [1-9][0-9]+ lines, 0 instructions -- .*per instruction: not shown"
                "gutter_naive_sass|--kernel naive --code sass|code counters: inst_executed on [1-9][0-9]* lines, [1-9][0-9]+ instructions"
                # In Chinese the note is Chinese too (it was English: the audit's defect).
                "gutter_warp_sass_zh|--lesson 3 --kernel warp --cols 1024 --code sass --lang zh|code counters: inst_executed on [1-9][0-9]+ lines, [1-9][0-9][0-9]+ instructions -- 逐行计数器：NVIDIA H100.*，本文件的 NVRTC 构建")
    string(REPLACE "|" ";" _parts "${_case}")
    list(GET _parts 0 _name)
    list(GET _parts 1 _args)
    list(GET _parts 2 _expect)
    add_test(NAME viewer_screenshot_recorded_${_name}
             COMMAND sh -c "CUDA_VISIBLE_DEVICES= ${_xvfb} 1600x1000 '$<TARGET_FILE:softmaxlab>' --no-settings --size 1600x1000 --predict off ${_args} --screenshot '${_shots}/recorded_${_name}.png' 2>&1 && '$<TARGET_FILE:png_check>' '${_shots}/recorded_${_name}.png' 1600 1000 500")
    set_tests_properties(viewer_screenshot_recorded_${_name} PROPERTIES LABELS cpu TIMEOUT 120
                         RESOURCE_LOCK xvfb PASS_REGULAR_EXPRESSION "${_expect}"
                         FAIL_REGULAR_EXPRESSION "Cannot open session")
  endforeach()
endif()

# Bad input exits non-zero with a one-line reason, before any window opens.
add_test(NAME viewer_cli_bad_size_message
         COMMAND sh -c "'$<TARGET_FILE:softmaxlab>' --size 12x --screenshot x.png 2>&1; test $? -eq 2")
set_tests_properties(viewer_cli_bad_size_message PROPERTIES LABELS cpu
                     PASS_REGULAR_EXPRESSION "error: --size '12x' is not WxH")
add_test(NAME viewer_cli_bad_mouse_message
         COMMAND sh -c "'$<TARGET_FILE:softmaxlab>' --mouse 1,2,3 --screenshot x.png 2>&1; test $? -eq 2")
set_tests_properties(viewer_cli_bad_mouse_message PROPERTIES LABELS cpu
                     PASS_REGULAR_EXPRESSION "error: --mouse '1,2,3' is not X,Y")
add_test(NAME viewer_cli_no_display
         COMMAND sh -c "env -u DISPLAY -u WAYLAND_DISPLAY '$<TARGET_FILE:softmaxlab>' --no-settings --screenshot '${_shots}/none.png' 2>&1; test $? -ne 0")
set_tests_properties(viewer_cli_no_display PROPERTIES LABELS cpu
                     PASS_REGULAR_EXPRESSION "error: cannot open a window")
add_test(NAME viewer_cli_help COMMAND softmaxlab --help)
set_tests_properties(viewer_cli_help PROPERTIES LABELS cpu PASS_REGULAR_EXPRESSION "--screenshot")
