# Hostile inputs (issue 24): nothing the app reads may crash it, hang it or lose a file.
# (Included by tests/CMakeLists.txt.)
#
#   test_hostile_inputs    unit cases: text caps, safe reads and writes, whole numbers, session
#                          values, settings set aside, save targets, viewer arguments  label cpu
#   test_session_fuzz      the session reader, and the charts drawn from what it accepts, under
#                          random mutations; a fixed seed here, any seed by hand:
#                          SML_FUZZ_SEED=<n> SML_FUZZ_CASES=<n> build/tests/test_session_fuzz
#   hostile_cli_*          softmaxlab-cli end to end (tests/scripts/hostile_cases.sh)     label cpu
#   hostile_viewer_*       the viewer end to end, under Xvfb where it draws (same script)  label cpu
include(${PROJECT_SOURCE_DIR}/app/viewer/model.cmake)
if(TARGET test_hostile_inputs)
  target_link_libraries(test_hostile_inputs PRIVATE sml_viewer_model)
endif()
# test_session_fuzz's time limit is set in tests/CMakeLists.txt (SML_TEST_TIMEOUT_...).
if(NOT TARGET softmaxlab-cli)
  return()
endif()

add_executable(hostile_fixture ${CMAKE_CURRENT_SOURCE_DIR}/hostile_fixture.cpp)
target_link_libraries(hostile_fixture PRIVATE sml_core sml_test_support sml::json)
set(_sml_hostile ${CMAKE_BINARY_DIR}/hostile)
add_test(NAME hostile_fixture_setup
         COMMAND sh -c "mkdir -p '${_sml_hostile}/fixtures' && '$<TARGET_FILE:hostile_fixture>' '${_sml_hostile}/fixtures'")
set_tests_properties(hostile_fixture_setup PROPERTIES LABELS cpu FIXTURES_SETUP hostile_sessions)

set(_sml_hostile_cli
  cli_title_100k cli_long_session_strings
  cli_dev_zero_session cli_fifo_session cli_oversized_session cli_out_of_memory
  cli_output_is_a_fifo
  cli_chart_tmp_symlink cli_chart_out_is_input
  cli_bare_nan cli_unknown_kernel cli_unknown_subcommand cli_size_overflow
  cli_record_code_into_its_input cli_record_code_finds_nothing cli_empty_paths
  # run, sweep and lab check their arguments in a build without the CUDA toolkit too.
  cli_sweep_keeps_partial cli_sweep_csv_keeps_partial cli_run_json_keeps_partial
  cli_sweep_out_is_csv cli_cols_overflow cli_cols_empty cli_warmup_negative cli_seed_negative
  cli_lab_out_is_source cli_lab_outputs_make_no_folder cli_time_limit_checked
  cli_sweep_extra_duplicate)
# Viewer argument errors: reported before any window opens, so no X server is needed.
set(_sml_hostile_viewer_args
  viewer_screenshot_empty viewer_lesson_negative viewer_lesson_not_a_number)
# Viewer cases that draw: under Xvfb.
set(_sml_hostile_viewer_shots
  viewer_long_device_name viewer_long_reason_lesson0 viewer_long_reason_lesson1
  viewer_dev_zero_session viewer_fifo_session viewer_missing_session_exits_1
  viewer_screenshot_side_files
  viewer_export_never_overwrites viewer_save_never_overwrites viewer_corrupt_settings_set_aside)

find_program(SML_XVFB_RUN xvfb-run)
set(_sml_viewer "")
set(_sml_cases ${_sml_hostile_cli})
if(TARGET softmaxlab)
  set(_sml_viewer "$<TARGET_FILE:softmaxlab>")
  list(APPEND _sml_cases ${_sml_hostile_viewer_args})
  if(SML_XVFB_RUN)
    list(APPEND _sml_cases ${_sml_hostile_viewer_shots})
  endif()
endif()
set(_sml_png_check "")
if(TARGET softmaxlab AND SML_XVFB_RUN)
  set(_sml_png_check "$<TARGET_FILE:png_check>")  # built by tests/viewer.cmake
endif()

foreach(case ${_sml_cases})
  add_test(NAME hostile_${case}
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/hostile_cases.sh ${case}
                   $<TARGET_FILE:softmaxlab-cli> "${_sml_viewer}" "${SML_XVFB_RUN}"
                   "${_sml_png_check}" ${_sml_hostile}/fixtures ${_sml_hostile}/work)
  set_tests_properties(hostile_${case} PROPERTIES LABELS cpu TIMEOUT 120
                       FIXTURES_REQUIRED hostile_sessions)
  if(case IN_LIST _sml_hostile_viewer_shots)
    set_tests_properties(hostile_${case} PROPERTIES RESOURCE_LOCK xvfb)
  endif()
endforeach()
