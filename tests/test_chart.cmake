# Chart tests beyond the gtest suites (included by tests/CMakeLists.txt).
#
# test_chart_export decodes the PNGs it writes with Cairo to count colours, so it needs Cairo's
# headers when Cairo is in the build (sml_core links Cairo privately).
if(TARGET test_chart_export AND SML_HAVE_CAIRO)
  target_link_libraries(test_chart_export PRIVATE sml::cairo)
endif()

# softmaxlab-cli chart end to end: exit codes and the error lines a user sees. The session comes
# from tests/data/chart_session_synthetic.json (SYNTHETIC numbers, for argument handling only).
if(TARGET softmaxlab-cli)
  set(_chart_session ${CMAKE_CURRENT_SOURCE_DIR}/data/chart_session_synthetic.json)
  set(_chart_out ${CMAKE_CURRENT_BINARY_DIR}/chart_cli)
  file(MAKE_DIRECTORY ${_chart_out})
  function(sml_chart_cli_test name expect_rc regex)
    add_test(NAME chart_cli_${name}
             COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:softmaxlab-cli> -DEXPECT_RC=${expect_rc}
                     -DEXPECT_REGEX=${regex} "-DARGS=${ARGN}"
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/data/chart_cli_run.cmake)
    set_tests_properties(chart_cli_${name} PROPERTIES LABELS cpu)
  endfunction()
  sml_chart_cli_test(csv 0 "wrote .*pct.csv"
    chart --session ${_chart_session} --chart pct --out ${_chart_out}/pct.csv)
  if(SML_HAVE_CAIRO)
    sml_chart_cli_test(png 0 "wrote .*bw.png \\(bandwidth chart, 800x450, dark\\)"
      chart --session ${_chart_session} --chart bandwidth --out ${_chart_out}/bw.png
      --size 800x450 --theme dark)
  endif()
  sml_chart_cli_test(unknown_chart 2 "unknown chart 'speed'.*valid charts: bandwidth, bytes"
    chart --session ${_chart_session} --chart speed --out ${_chart_out}/x.png)
  sml_chart_cli_test(unknown_extension 2 "unknown chart file extension '.jpg'.*hint: end --out"
    chart --session ${_chart_session} --chart pct --out ${_chart_out}/x.jpg)
  sml_chart_cli_test(bad_size 2 "bad --size '1600by900'"
    chart --session ${_chart_session} --chart pct --out ${_chart_out}/x.csv --size 1600by900)
  sml_chart_cli_test(missing_cols 2 "no points in the session for N = 4095.*available: 32, 64"
    chart --session ${_chart_session} --chart bytes --cols 4095 --out ${_chart_out}/x.csv)
  sml_chart_cli_test(unwritable 1 "cannot write '/nonexistent-sml-dir/x.csv'"
    chart --session ${_chart_session} --chart pct --out /nonexistent-sml-dir/x.csv)
  sml_chart_cli_test(missing_session 1 "error: "
    chart --session ${_chart_out}/no-such-session.json --chart pct --out ${_chart_out}/x.csv)
endif()
