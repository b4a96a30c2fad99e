# softmaxlab-cli end to end (label cpu): exit codes and the error/hint lines a user sees.
#
# Each test runs the CLI through a small driver that checks the exit code AND the output (CTest's
# PASS_REGULAR_EXPRESSION alone would ignore the exit code). GPU-less behaviour is tested with
# CUDA_VISIBLE_DEVICES set empty, so these tests mean the same on a machine with a GPU.
if(NOT TARGET softmaxlab-cli)
  return()
endif()

# The driver is generated here rather than kept as tests/*.cmake, which this folder includes.
set(SML_CLI_DRIVER ${CMAKE_CURRENT_BINARY_DIR}/expect_cli.cmake)
file(WRITE ${SML_CLI_DRIVER} [=[
# cmake -DCMD=a|b|c -DRC=<exit code> -DEXPECT=re1|re2 [-DREJECT=re] [-DERROR_HINT=1]
#       -P expect_cli.cmake
string(REPLACE "|" ";" cmd "${CMD}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT rc STREQUAL "${RC}")
  message(FATAL_ERROR "exit code ${rc}, expected ${RC}, from: ${CMD}\n--- output ---\n${all}")
endif()
if(EXPECT)
  string(REPLACE "|" ";" expects "${EXPECT}")
  foreach(re ${expects})
    if(NOT all MATCHES "${re}")
      message(FATAL_ERROR "output lacks /${re}/ from: ${CMD}\n--- output ---\n${all}")
    endif()
  endforeach()
endif()
if(ERROR_HINT)
  # stderr is exactly one "error: ..." line followed by one "hint: ..." line.
  string(REGEX REPLACE "\n$" "" e "${err}")
  string(REPLACE ";" "," e "${e}")
  string(REPLACE "\n" ";" lines "${e}")
  list(LENGTH lines n)
  set(first "")
  set(second "")
  if(n EQUAL 2)
    list(GET lines 0 first)
    list(GET lines 1 second)
  endif()
  if(NOT first MATCHES "^error: ." OR NOT second MATCHES "^hint: .")
    message(FATAL_ERROR "stderr is not one error: line and one hint: line, from: ${CMD}\n"
                        "--- stderr ---\n${err}")
  endif()
endif()
if(REJECT AND all MATCHES "${REJECT}")
  message(FATAL_ERROR "output has /${REJECT}/ from: ${CMD}\n--- output ---\n${all}")
endif()
message(STATUS "ok (exit ${rc}): ${CMD}")
]=])

# sml_cli_test(<name> RC <code> ARGS <cli args...> [EXPECT <regex>...] [REJECT <regex>]
#              [ERROR_HINT])   ERROR_HINT: stderr must be exactly an error: and a hint: line
function(sml_cli_test name)
  cmake_parse_arguments(T "ERROR_HINT" "RC;REJECT" "ARGS;EXPECT" ${ARGN})
  list(JOIN T_ARGS "|" args)
  list(JOIN T_EXPECT "|" expect)
  add_test(NAME cli_${name}
           COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:softmaxlab-cli>|${args}" -DRC=${T_RC}
                   "-DEXPECT=${expect}" "-DREJECT=${T_REJECT}" -DERROR_HINT=${T_ERROR_HINT}
                   -P ${SML_CLI_DRIVER})
  set_tests_properties(cli_${name} PROPERTIES LABELS cpu TIMEOUT 60
                       ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
endfunction()

sml_cli_test(help RC 0 ARGS --help EXPECT "Examples:" "sweep" "Exit codes")
sml_cli_test(version RC 0 ARGS --version EXPECT "softmaxlab-cli [0-9]+\\.[0-9]+")
sml_cli_test(list_without_gpu RC 0 ARGS list
             EXPECT "no GPU here" "naive" "online_tiled" "warp +3 .*1\\.\\.1024")
# run, sweep, device and lab declare the same options and check their arguments the same way in
# every build (app/cli/gpu_commands.h): --help lists the options and a bad argument exits 2,
# with or without the CUDA toolkit. Only good arguments get to the GPU step, which here (no GPU)
# fails with exit 1: "no CUDA device" in a build with the toolkit, "no GPU support" without one.
if(SML_HAVE_CUDA)
  set(SML_CLI_NO_GPU "error: no CUDA device" "hint: replay a session .*NVIDIA GPU")
else()
  set(SML_CLI_NO_GPU "error: this build of softmaxlab has no GPU support \\(it was built without"
                     "hint: install the CUDA toolkit")
endif()
# The options, in full: each named with its value and default as CLI11 prints them.
sml_cli_test(run_help RC 0 ARGS run --help
             EXPECT "-k,--kernel TEXT REQUIRED" "-n,--cols TEXT=1024" "-m,--rows TEXT=4096"
                    "--dtype TEXT=fp32" "--metrics TEXT=default" "--source TEXT"
                    "--time-limit TEXT=120" "Examples:" "run --kernel fused --rows 4096")
sml_cli_test(sweep_help RC 0 ARGS sweep --help
             EXPECT "--kernels TEXT=all" "--cols TEXT=32," "-o,--out TEXT" "--per-line TEXT"
                    "--extra TEXT" "sweep --out session.json --csv session.csv")
sml_cli_test(device_help RC 0 ARGS device --help EXPECT "--device INT=0")
sml_cli_test(lab_help RC 0 ARGS lab --help
             EXPECT "compile +Compile an edited kernel" "exercise +List, check or solve"
                    "fold +Fold a result's")
sml_cli_test(lab_compile_help RC 0 ARGS lab compile --help
             EXPECT "-k,--kernel TEXT REQUIRED" "--source TEXT REQUIRED" "--arch TEXT")

# Good arguments: the GPU step, which says why it cannot run.
sml_cli_test(run_without_gpu RC 1 ARGS run --kernel fused --rows 64 --cols 1024
             ERROR_HINT EXPECT ${SML_CLI_NO_GPU})
sml_cli_test(sweep_without_gpu RC 1 ARGS sweep --cols 32,1024 ERROR_HINT EXPECT ${SML_CLI_NO_GPU})
sml_cli_test(device_without_gpu RC 1 ARGS device ERROR_HINT EXPECT ${SML_CLI_NO_GPU})
if(SML_HAVE_CUDA)
  # NVRTC compiles without a GPU.
  sml_cli_test(lab_compile_without_gpu RC 0 ARGS lab compile --kernel naive
               --source ${PROJECT_SOURCE_DIR}/kernels/naive_softmax.cu EXPECT "lab: ok: ")
else()
  # What needs the toolkit but no GPU (NVRTC, CUPTI's line map, a lab job's child) says so too.
  sml_cli_test(lab_compile_needs_a_cuda_build RC 1 ARGS lab compile --kernel naive
               --source ${PROJECT_SOURCE_DIR}/kernels/naive_softmax.cu
               ERROR_HINT EXPECT ${SML_CLI_NO_GPU})
  sml_cli_test(run_source_needs_a_cuda_build RC 1 ARGS run --kernel naive
               --source ${PROJECT_SOURCE_DIR}/kernels/naive_softmax.cu
               ERROR_HINT EXPECT ${SML_CLI_NO_GPU})
  sml_cli_test(lab_check_needs_a_cuda_build RC 1 ARGS lab exercise --check naive-row-sum
               ERROR_HINT EXPECT ${SML_CLI_NO_GPU})
  sml_cli_test(lab_fold_needs_a_cuda_build RC 1 ARGS lab fold
               --result ${PROJECT_SOURCE_DIR}/tests/data/lab/warp-unedited.result.json
               ERROR_HINT EXPECT ${SML_CLI_NO_GPU})
endif()
# The exercises' texts need neither a GPU nor the toolkit.
sml_cli_test(lab_exercise_list RC 0 ARGS lab exercise --list
             EXPECT "naive-row-sum +step 1 +naive" "online-merge +step 6 +online")

# Bad arguments: exit 2, naming the argument, before anything needs a GPU or the toolkit.
sml_cli_test(run_unknown_kernel RC 2 ARGS run --kernel nope
             ERROR_HINT EXPECT "unknown kernel 'nope'"
                    "valid kernels: [a-z_]+(, [a-z_]+)+")
sml_cli_test(run_outside_range RC 2 ARGS run --kernel warp --cols 5000
             ERROR_HINT EXPECT "N = 5000 is outside warp's range 1\\.\\.1024"
                    "hint: kernels that can run N = 5000: .*online")
sml_cli_test(run_bad_size RC 2 ARGS run --kernel fused --rows 0 --cols 1024
             ERROR_HINT EXPECT "--rows 0 is too small: the least is 1")
sml_cli_test(run_negative_cols RC 2 ARGS run --kernel fused -n -5
             ERROR_HINT EXPECT "--cols -5 is negative")
sml_cli_test(run_unknown_option RC 2 ARGS run --kernel fused --n 5
             ERROR_HINT EXPECT "not expected: .*--n" "hint: run `softmaxlab-cli run --help`")
sml_cli_test(run_without_kernel RC 2 ARGS run --cols 1024 ERROR_HINT EXPECT "--kernel is required")
sml_cli_test(run_bad_dtype RC 2 ARGS run --kernel fused --dtype fp64
             ERROR_HINT EXPECT "unknown dtype 'fp64'")
sml_cli_test(run_not_a_number RC 2 ARGS run --kernel fused --rows many
             ERROR_HINT EXPECT "--rows" REJECT "Segmentation|terminate")
sml_cli_test(run_unwritable_json RC 2 ARGS run --kernel fused --json /nonexistent-dir/r.json
             ERROR_HINT EXPECT "--json /nonexistent-dir/r.json is not writable")
sml_cli_test(run_missing_source RC 2 ARGS run --kernel naive --source /nonexistent-dir/edit.cu
             ERROR_HINT EXPECT "cannot open /nonexistent-dir/edit.cu")
sml_cli_test(sweep_unwritable_out RC 2 ARGS sweep --out /nonexistent-dir/s.json
             ERROR_HINT EXPECT "--out /nonexistent-dir/s.json is not writable")
sml_cli_test(sweep_out_is_directory RC 2 ARGS sweep --out ${CMAKE_CURRENT_BINARY_DIR}
             ERROR_HINT EXPECT "is a directory")
sml_cli_test(sweep_bad_cols RC 2 ARGS sweep --cols 32,abc
             ERROR_HINT EXPECT "'abc' is not a positive integer")
sml_cli_test(sweep_unknown_kernel RC 2 ARGS sweep --kernels fused,nope
             ERROR_HINT EXPECT "unknown kernel 'nope'")
sml_cli_test(sweep_bad_dtype RC 2 ARGS sweep --dtype fp64 ERROR_HINT EXPECT "unknown dtype 'fp64'")
sml_cli_test(sweep_per_line_not_swept RC 2 ARGS sweep --cols 32,1024 --per-line 4096
             ERROR_HINT EXPECT "--per-line 4096 is not one of the sweep's N")
sml_cli_test(device_bad_index RC 2 ARGS device --device x
             ERROR_HINT EXPECT "--device = x" "hint: run `softmaxlab-cli device --help`")
sml_cli_test(lab_compile_without_source RC 2 ARGS lab compile --kernel naive
             ERROR_HINT EXPECT "--source is required")
sml_cli_test(lab_compile_unknown_kernel RC 2 ARGS lab compile --kernel nope
             --source ${PROJECT_SOURCE_DIR}/kernels/naive_softmax.cu
             ERROR_HINT EXPECT "no kernel 'nope'" "hint: kernels: naive, ")
sml_cli_test(lab_compile_missing_source RC 2 ARGS lab compile --kernel naive
             --source /nonexistent-dir/edit.cu
             ERROR_HINT EXPECT "cannot open /nonexistent-dir/edit.cu")
sml_cli_test(lab_exercise_unknown RC 2 ARGS lab exercise --check nope
             ERROR_HINT EXPECT "no exercise 'nope'" "hint: exercises: naive-row-sum")
sml_cli_test(lab_run_missing_job RC 2 ARGS lab run --job /nonexistent-dir/j.json
             --out ${CMAKE_CURRENT_BINARY_DIR}/lab-run-result.json
             ERROR_HINT EXPECT "cannot open /nonexistent-dir/j.json")
sml_cli_test(lab_fold_missing_result RC 2 ARGS lab fold --result /nonexistent-dir/r.json
             ERROR_HINT EXPECT "cannot open /nonexistent-dir/r.json")
sml_cli_test(no_subcommand RC 2 ARGS --nonsense EXPECT "error:" "hint: run `softmaxlab-cli")

# The peers chart, from the newest recorded bench/peers.py results (CSV needs no Cairo). Files
# are found by their name pattern, <device>-<date>-<dtype>.json, the newest last by name.
file(GLOB _sml_peers_fp32 CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/bench/results/*-fp32.json)
file(GLOB _sml_sessions CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/assets/sessions/*.json)
list(SORT _sml_peers_fp32)
list(SORT _sml_sessions)
list(GET _sml_peers_fp32 -1 SML_PEERS_FP32)
list(GET _sml_sessions -1 SML_RECORDED_SESSION)
sml_cli_test(chart_peers_csv RC 0 ARGS chart --chart peers --peers ${SML_PEERS_FP32}
             --out ${CMAKE_CURRENT_BINARY_DIR}/peers.csv EXPECT "wrote .*peers.csv")
sml_cli_test(chart_peers_without_files RC 2 ARGS chart --chart peers --out peers.png
             ERROR_HINT EXPECT "the peers chart needs --peers")
sml_cli_test(chart_peers_given_a_session RC 1 ARGS chart --chart peers --out peers.png
             --peers ${SML_RECORDED_SESSION}
             ERROR_HINT EXPECT "not a bench/peers.py results file")
sml_cli_test(chart_session_chart_without_session RC 2 ARGS chart --chart pct --out pct.png
             ERROR_HINT EXPECT "the pct chart needs --session")
