# The harness's self-test: registers selftest_cases' four cases exactly as every suite's are
# (tests/cmake/list_gtest_cases.cmake), runs them with CTest, and checks that the failing case is
# reported failed although another case of the same binary skipped, that a skip for a reason
# other than "no GPU" or "counters not permitted" is a failure, and that the rest pass or skip.
#   cmake -DEXE=<selftest_cases> -DLISTER=<list_gtest_cases.cmake> -DDIR=<scratch> -P this
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
execute_process(COMMAND ${CMAKE_COMMAND} -DEXE=${EXE} -DOUT=${DIR}/cases.cmake -DLABEL=selftest
                        -DTIMEOUT=60 -P ${LISTER} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "listing the self-test's cases failed")
endif()
file(WRITE "${DIR}/CTestTestfile.cmake" "include(cases.cmake)\n")
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${DIR} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(rc EQUAL 0)
  message(FATAL_ERROR "ctest passed a binary with a failing case")
endif()
foreach(expect "HarnessSelfTest.Passes [.]+ +Passed"
               "HarnessSelfTest.SkipsWithoutAGpu [.]+[*]+Skipped"
               "HarnessSelfTest.SkipsForAReasonThatIsNotAllowed [.]+[*]+Failed"
               "HarnessSelfTest.Fails [.]+[*]+Failed"
               "50% tests passed, 2 tests failed out of 4")
  if(NOT out MATCHES "${expect}")
    message(FATAL_ERROR "ctest's report lacks /${expect}/")
  endif()
endforeach()
