# Runs one softmaxlab-cli command and checks its exit code and output (stdout + stderr).
# cmake -DCLI=<exe> -DEXPECT_RC=<n> -DEXPECT_REGEX=<regex> -DARGS=<a;b;c> -P chart_cli_run.cmake
# Lives in tests/data/ so that tests/CMakeLists.txt does not include it as a test definition.
execute_process(COMMAND ${CLI} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT rc STREQUAL EXPECT_RC)
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_RC}\n${all}")
endif()
if(NOT all MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match '${EXPECT_REGEX}':\n${all}")
endif()
message(STATUS "ok (exit ${rc}): ${all}")
