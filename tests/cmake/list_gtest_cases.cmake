# Writes a CTest file with one test per GoogleTest case of a test binary (run after each link).
#   cmake -DEXE=<binary> -DOUT=<file> -DLABEL=<label> -DTIMEOUT=<s> [-DENV=<k=v>] [-DSERIAL=1]
#         -P this
# Each case runs alone (--gtest_filter=Suite.Case). tests/support/gtest_main.cpp exits 77 when
# the case skipped for an allowed reason, which SKIP_RETURN_CODE turns into "Skipped"; any other
# skip, and any failure, exits 1 and is reported as failed.
execute_process(COMMAND "${EXE}" --gtest_list_tests OUTPUT_VARIABLE listing
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} --gtest_list_tests failed (${rc}): ${err}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(body "# Generated from ${EXE} --gtest_list_tests; do not edit.\n")
set(suite "")
set(count 0)
foreach(line IN LISTS lines)
  string(REGEX REPLACE "[ ]*#.*$" "" line "${line}")  # "  # GetParam() = ..." comments
  if(line MATCHES "^([^ ].*)\\.$")
    set(suite "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^  ([^ ]+)$" AND NOT suite STREQUAL "")
    set(name "${suite}.${CMAKE_MATCH_1}")
    string(APPEND body "add_test([=[${name}]=] [==[${EXE}]==] [==[--gtest_filter=${name}]==] --gtest_color=no)\n")
    string(APPEND body "set_tests_properties([=[${name}]=] PROPERTIES LABELS ${LABEL} TIMEOUT ${TIMEOUT} SKIP_RETURN_CODE 77")
    if(ENV)
      string(APPEND body " ENVIRONMENT [==[${ENV}]==]")
    endif()
    if(SERIAL)
      string(APPEND body " RUN_SERIAL TRUE")
    endif()
    string(APPEND body ")\n")
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${EXE} lists no test cases")
endif()
file(WRITE "${OUT}" "${body}")
