# The GPU machine's Python tools (bench/, scripts/): every script compiles, and bench/peers.py's
# tuning list is well formed (tests/bench_scripts_check.py). scripts/install-deps.sh installs
# python3; without it this test fails and says so.
find_program(SML_PYTHON3 python3)
if(SML_PYTHON3)
  add_test(NAME bench_scripts_compile_and_tune_list
           COMMAND ${SML_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/bench_scripts_check.py
                   ${PROJECT_SOURCE_DIR})
else()
  add_test(NAME bench_scripts_compile_and_tune_list
           COMMAND ${CMAKE_COMMAND} -E false)
  message(STATUS "python3 not found: bench_scripts_compile_and_tune_list will fail "
                 "(scripts/install-deps.sh installs it)")
endif()
set_tests_properties(bench_scripts_compile_and_tune_list PROPERTIES LABELS cpu TIMEOUT 120)

# bench/build_libsmlbest.sh --trial (several versions of best built as one, each variant compiling
# only the units its change reaches) and bench/trial_steps.sh (a trial call's steps around it),
# run with stub compilers and a stub Python on copies of kernels/ (tests/build_trial_check.py).
# Needs bash and git (git apply), as the GPU machine's runs do.
if(SML_PYTHON3)
  add_test(NAME bench_build_trial_libraries
           COMMAND ${SML_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/build_trial_check.py
                   ${PROJECT_SOURCE_DIR})
else()
  add_test(NAME bench_build_trial_libraries COMMAND ${CMAKE_COMMAND} -E false)
endif()
set_tests_properties(bench_build_trial_libraries PROPERTIES LABELS cpu TIMEOUT 300)
