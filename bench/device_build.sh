# Sourced by the device-call scripts (tile_check.sh, stash_check.sh): the two builds each of them
# starts with, side by side -- libsmlbest.so (bench/build_libsmlbest.sh, for bench/peers.py and
# bench/scan_best.py) in the background, and the GPU tests and CLI in build-dev/ for this GPU.
# Logs go to $OUT. Needs OUT and a say() that logs a line.
#
#   source bench/device_build.sh
#   device_build /tmp/libsmlbest.so gpu_test_best softmaxlab-cli   # returns when both are done

device_build() {  # LIB, then the CMake targets
    local lib=$1 rc_file
    shift
    rc_file=$(mktemp)
    (bash bench/build_libsmlbest.sh "$lib" . >"$OUT/lib-build.log" 2>&1; echo $? >"$rc_file") &
    cmake -S . -B build-dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DSML_WITH_GUI=OFF \
        -DSML_WITH_CAIRO=OFF -DCMAKE_CUDA_ARCHITECTURES="${SML_DEVICE_ARCH:-90}" \
        >"$OUT/configure.log" 2>&1
    cmake --build build-dev -j"${JOBS:-12}" --target "$@" >"$OUT/build.log" 2>&1
    say "build of $* rc=$?"
    wait
    say "libsmlbest build rc=$(cat "$rc_file")"
    rm -f "$rc_file"
}
