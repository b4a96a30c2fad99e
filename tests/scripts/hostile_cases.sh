#!/bin/sh
# Hostile inputs, end to end (issue 24): softmaxlab-cli and the viewer must not crash, hang or
# lose a file, and must say what was wrong in the user's own terms.
#
#   hostile_cases.sh CASE CLI VIEWER XVFB_RUN PNG_CHECK FIXTURES WORK
#
# CASE is one function below (tests/hostile.cmake makes each a CTest test). VIEWER, XVFB_RUN
# and PNG_CHECK may be "" when the viewer is not built. FIXTURES is the folder hostile_fixture
# wrote; WORK a scratch folder (CASE gets its own sub-folder). Every case checks the exit code,
# the message and, where files are involved, that their bytes and inode are unchanged.
set -u
CASE=$1 CLI=$2 VIEWER=$3 XVFB=$4 PNG_CHECK=$5 FIX=$6
XVFB_SH=$(cd "$(dirname "$0")" && pwd)/xvfb.sh  # before the cd below: $0 may be relative
WORK=$7/$CASE
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
# No GPU, the same everywhere: the CLI and viewer take their no-GPU paths even on a GPU machine.
export CUDA_VISIBLE_DEVICES=
export HOME="$WORK/home"
mkdir -p "$HOME"

fail() {
    echo "FAIL ($CASE): $*"
    exit 1
}

# run RC COMMAND...: runs with a 30 s limit (a hang fails the case), keeps stdout and stderr in
# $OUT and checks the exit code.
run() {
    want=$1
    shift
    OUT=$(timeout 30 "$@" 2>&1)
    rc=$?
    printf '%s\n' "$OUT" | cut -c1-300
    [ $rc -eq 124 ] && fail "hung (killed after 30 s): $*"
    [ $rc -eq "$want" ] || fail "exit code $rc, expected $want"
    return 0
}

# The viewer in screenshot mode under a private X server.
shot() {
    want=$1
    shift
    run "$want" sh "$XVFB_SH" "$XVFB" 1600x1000 "$VIEWER" --size 1600x1000 --frames 3 "$@"
}

expect() {
    printf '%s' "$OUT" | grep -q -e "$1" || fail "the output lacks /$1/"
}
reject() {
    printf '%s' "$OUT" | grep -q -e "$1" && fail "the output has /$1/"
    return 0
}
# keep FILE: remember FILE's bytes and inode; unchanged FILE: check them.
keep() {
    cp -P "$1" "$1.expected" && stat -c %i "$1" > "$1.inode"
}
unchanged() {
    if [ -L "$1.expected" ]; then
        [ "$(readlink "$1")" = "$(readlink "$1.expected")" ] || fail "$1 now points elsewhere"
    else
        cmp -s "$1" "$1.expected" || fail "$1 was changed"
    fi
    [ "$(stat -c %i "$1")" = "$(cat "$1.inode")" ] || fail "$1 was replaced (new inode)"
}
# safe_file.h names side files "<name>.<8 random characters>.partial".
no_side_files() {
    ls -a | grep -qE '\.[a-z0-9]{8}\.partial$' && fail "a side file was left behind: $(ls -a)"
    return 0
}
png_ok() {
    "$PNG_CHECK" "$1" 1600 1000 500 || fail "$1 is not a good screenshot"
}

S="$FIX/valid.json"
# What run and sweep say with good arguments and no GPU: in a build with the CUDA toolkit, and in
# one without.
NO_GPU="error: no CUDA device\|error: this build of softmaxlab has no GPU support"

# True when this softmaxlab-cli draws PNG/SVG/PDF (built with Cairo; the GPU machine has none).
can_draw() {
    "$CLI" chart --session "$S" --chart pct --out can-draw.svg >/dev/null 2>&1
}

# [SECTION] Crashes and hangs from long strings ---------------------------------------------------
# Was: 146 s for a 100000-character --title (elide() measured once per character dropped).
cli_title_100k() {
    title=$(head -c 100000 /dev/zero | tr '\0' x)
    start=$(date +%s)
    run 0 "$CLI" chart --session "$S" --chart bandwidth --out t.csv --title "$title"
    if can_draw; then
        run 0 "$CLI" chart --session "$S" --chart bandwidth --out t.svg --title "$title"
        [ -s t.svg ] || fail "t.svg was not written"
    fi
    [ $(($(date +%s) - start)) -le 10 ] || fail "took more than 10 s"
}
# Was: 494 s for a 200000-character device.name; a 1000000-character command never finished.
cli_long_session_strings() {
    start=$(date +%s)
    run 0 "$CLI" chart --session "$FIX/long_strings.json" --chart bandwidth --out l.csv
    if can_draw; then
        run 0 "$CLI" chart --session "$FIX/long_strings.json" --chart bandwidth --out l.svg
    fi
    [ $(($(date +%s) - start)) -le 10 ] || fail "took more than 10 s"
}

# [SECTION] Files that are not regular, too large, or too much for memory -------------------------
cli_dev_zero_session() {
    # Was: read until memory ran out, then std::bad_alloc and abort (exit 134).
    run 1 sh -c "ulimit -v 4000000; exec '$CLI' chart --session /dev/zero --chart bandwidth --out z.csv"
    expect "error: /dev/zero is a character device, not a session file"
    [ -e z.csv ] && fail "z.csv was written"
    return 0
}
cli_fifo_session() {
    mkfifo pipe.json
    run 1 "$CLI" chart --session pipe.json --chart pct --out p.csv
    expect "error: pipe.json is a FIFO (named pipe), not a session file"
}
cli_oversized_session() {
    truncate -s 70000000 huge.json  # sparse: no disk space used
    run 1 "$CLI" chart --session huge.json --chart pct --out h.csv
    expect "huge.json is 70.0 MB, more than the 64 MiB softmaxlab reads"
}
cli_out_of_memory() {
    # A valid 60 MB session under a 200 MB address-space limit: reported, not an abort.
    run 1 sh -c "ulimit -v 200000; exec '$CLI' chart --session '$FIX/big_60mb.json' --chart pct --out m.csv"
    expect "out of memory"
    reject "terminate called"
}
cli_output_is_a_fifo() {
    mkfifo out.csv
    run 2 "$CLI" chart --session "$S" --chart pct --out out.csv  # refused before drawing
    expect "out.csv is a FIFO (named pipe), not a regular file"
    [ -p out.csv ] || fail "the FIFO was replaced"
}

# [SECTION] Files lost -----------------------------------------------------------------------------
cli_sweep_keeps_partial() {
    echo notes > s.json.partial
    keep s.json.partial
    run 1 "$CLI" sweep --out s.json
    expect "$NO_GPU"
    unchanged s.json.partial
}
cli_sweep_csv_keeps_partial() {
    echo notes > s.csv.partial
    keep s.csv.partial
    run 1 "$CLI" sweep --out s.json --csv s.csv
    unchanged s.csv.partial
}
cli_run_json_keeps_partial() {
    echo notes > r.json.partial
    keep r.json.partial
    run 1 "$CLI" run --kernel fused --cols 1024 --json r.json
    unchanged r.json.partial
}
cli_chart_tmp_symlink() {
    echo "important" > important.txt
    keep important.txt
    ln -s important.txt bw.csv.tmp
    ln -s important.txt bw.csv.partial
    keep bw.csv.tmp
    keep bw.csv.partial
    run 0 "$CLI" chart --session "$S" --chart bandwidth --out bw.csv
    unchanged important.txt
    unchanged bw.csv.tmp
    unchanged bw.csv.partial
    head -1 bw.csv | grep -q '^panel,series' || fail "bw.csv is not the chart's CSV"
    # Written again over itself: replaced, and still no side file left.
    run 0 "$CLI" chart --session "$S" --chart pct --out bw.csv
    no_side_files
}
cli_chart_out_is_input() {
    cp "$S" sess.csv
    ln sess.csv hard.csv
    ln -s sess.csv link.csv
    keep sess.csv
    run 2 "$CLI" chart --session sess.csv --chart pct --out sess.csv
    expect "error: --out sess.csv is the same file as --session sess.csv"
    run 2 "$CLI" chart --session sess.csv --chart pct --out ./hard.csv
    expect "is the same file as --session"
    run 2 "$CLI" chart --session link.csv --chart pct --out sess.csv
    expect "is the same file as --session"
    unchanged sess.csv
}
cli_lab_out_is_source() {
    # Was: the cubin, PTX or result JSON written over the edit itself, exit 0 for compile.
    printf '// my edit\n' > my.cu
    ln my.cu hard.cu
    ln -s my.cu link.cu
    keep my.cu
    run 2 "$CLI" lab compile --kernel naive --source my.cu --out my.cu
    expect "error: --out my.cu is the same file as --source my.cu"
    run 2 "$CLI" lab compile --kernel naive --source my.cu --ptx ./hard.cu
    expect "error: --ptx ./hard.cu is the same file as --source my.cu"
    run 2 "$CLI" lab compile --kernel naive --source link.cu --ptx my.cu
    expect "error: --ptx my.cu is the same file as --source link.cu"
    run 2 "$CLI" lab compile --kernel naive --source my.cu --ptx k.bin --out k.bin
    expect "error: --out k.bin is the same file as --ptx k.bin"
    run 2 "$CLI" run --kernel naive --source my.cu --result my.cu
    expect "error: --result my.cu is the same file as --source my.cu"
    run 2 "$CLI" run --kernel naive --source link.cu --json hard.cu
    expect "error: --json hard.cu is the same file as --source link.cu"
    unchanged my.cu
    [ -e k.bin ] && fail "k.bin was written"
    return 0
}
cli_record_code_into_its_input() {
    # Was: --out d with --ptx-dir d/ptx filtered the build's PTX in place (the input lost).
    mkdir -p d/ptx d/sass
    printf '.version 9.0\n.target sm_90\n.address_size 64\n\n.visible .entry k(\n)\n{\n\tret;\n}\n' > d/ptx/naive_softmax.ptx
    keep d/ptx/naive_softmax.ptx
    ln -s d/ptx ptx-link
    run 2 "$CLI" record-code --ptx-dir d/ptx --out d
    expect "error: --out's ptx/ folder d/ptx is the same folder as --ptx-dir d/ptx"
    run 2 "$CLI" record-code --ptx-dir ptx-link --out ./d/
    expect "is the same folder as --ptx-dir ptx-link"
    run 2 "$CLI" record-code --ptx-dir d/ptx --sass-dir d/sass --out d
    expect "is the same folder as"
    unchanged d/ptx/naive_softmax.ptx
    [ -e d/manifest.json ] && fail "d/manifest.json was written"
    # Beside it, not into it: recorded, and the input kept.
    run 0 "$CLI" record-code --ptx-dir d/ptx --out rec
    expect "wrote rec/manifest.json"
    unchanged d/ptx/naive_softmax.ptx
    grep -q "entry k" rec/ptx/naive_softmax.ptx || fail "rec/ptx/naive_softmax.ptx lacks the entry"
}
cli_record_code_finds_nothing() {
    # Was: exit 0 and an empty recording for a folder that is missing, a file, or holds nothing.
    mkdir empty
    echo text > file.txt
    run 2 "$CLI" record-code --ptx-dir no-such-folder --out rec
    expect "error: --ptx-dir no-such-folder: No such file or directory"
    run 2 "$CLI" record-code --ptx-dir empty --sass-dir file.txt --out rec
    expect "error: --sass-dir file.txt is not a folder"
    run 1 "$CLI" record-code --ptx-dir empty --out rec
    expect "error: nothing to record: found no PTX in empty"
    [ -e rec ] && fail "rec was written: $(ls -R rec)"
    return 0
}
cli_empty_paths() {
    # An empty path is refused while parsing, never read as "no option" or as the root folder:
    # record-code --out "" wrote /ptx, /sass and /manifest.json.
    mkdir -p ptx
    run 2 "$CLI" record-code --out "" --ptx-dir ptx
    expect "error: --out: the path is empty"
    run 2 "$CLI" record-code --out rec --ptx-dir ""
    expect "error: --ptx-dir: the path is empty"
    run 2 "$CLI" chart --chart pct --session "$S" --compare "" --out pct.csv
    expect "error: --compare: the path is empty"
    run 2 "$CLI" chart --chart peers --peers "" --out peers.csv
    expect "error: --peers: the path is empty"
    # A value left out: the next option is not taken for the path.
    run 2 "$CLI" chart --out pct.csv --session --chart pct
    expect "error: --session: '--chart' is an option, not a path"
    run 2 "$CLI" chart --chart pct --session "$S" --out -o
    expect "error: --out: '-o' is an option, not a path"
    [ -e rec ] || [ -e pct.csv ] || [ -e peers.csv ] && fail "a file was written: $(ls)"
    # run, sweep and lab, in a build with or without the CUDA toolkit.
    run 2 "$CLI" run --kernel naive --source ""
    expect "error: --source: the path is empty"
    run 2 "$CLI" sweep --out s.json --csv ""
    expect "error: --csv: the path is empty"
    run 2 "$CLI" lab compile --kernel naive --source x.cu --ptx ""
    expect "error: --ptx: the path is empty"
    run 2 "$CLI" lab exercise --start naive-row-sum --out ""
    expect "error: --out: the path is empty"
}
cli_lab_outputs_make_no_folder() {
    # Was: the lab's outputs made any missing folder (newdir/a/b/c.ptx made newdir/a/b).
    printf '// my edit\n' > my.cu  # refused before it is read
    run 2 "$CLI" lab exercise --start naive-row-sum --out newdir/x.cu
    expect "error: --out newdir/x.cu is not writable: No such file or directory"
    run 2 "$CLI" lab compile --kernel naive --source my.cu --ptx newdir/a/b/c.ptx
    expect "error: --ptx newdir/a/b/c.ptx is not writable: No such file or directory"
    run 2 "$CLI" run --kernel naive --source my.cu --result newdir/x/r.json
    expect "error: --result newdir/x/r.json is not writable: No such file or directory"
    [ -e newdir ] && fail "newdir was created"
    # Into a folder that exists: written.
    run 0 "$CLI" lab exercise --start naive-row-sum --out ex.cu
    [ -s ex.cu ] || fail "ex.cu was not written"
}
cli_time_limit_checked() {
    # Was: nan, inf, 1e999, 0 and negative limits taken as given.
    printf '// my edit\n' > my.cu
    for bad in nan inf 1e999 -5 0; do
        run 2 "$CLI" run --kernel naive --source my.cu --time-limit "$bad"
        expect "error: --time-limit '*$bad'* is"
    done
    run 2 "$CLI" lab exercise --check naive-row-sum --time-limit nan
    expect "error: --time-limit 'nan' is not a number of seconds"
    run 2 "$CLI" lab lines --session "$S" --out l.json --time-limit 7200
    expect "error: --time-limit 7200 is too large: the most is 3600"
    [ -e l.json ] && fail "l.json was written"
    return 0
}
cli_sweep_extra_duplicate() {
    # Was: recorded twice, and the saved session then refused by every reader.
    run 2 "$CLI" sweep --kernels naive --cols 1024 --elements 4194304 --extra naive:4096x1024 \
        --out s.json
    expect "error: extra point 'naive:4096x1024' is already in the sweep"
    run 2 "$CLI" sweep --kernels naive --cols 1024 --extra naive:64x32,naive:64x32 --out s.json
    expect "error: extra point 'naive:64x32' is already in the sweep"
    # Distinct extras get past the plan, to the GPU step.
    run 1 "$CLI" sweep --kernels naive --cols 1024 --extra naive:64x32,naive:64x64 --out s.json
    expect "$NO_GPU"
    [ -e s.json ] && fail "s.json was written"
    return 0
}
cli_sweep_out_is_csv() {
    run 2 "$CLI" sweep --out X --csv X
    expect "error: --csv X and --out X are the same file"
    run 2 "$CLI" sweep --out X --csv ./X
    expect "are the same file"
    [ -e X ] && fail "X was created"
    return 0
}

# [SECTION] Messages -------------------------------------------------------------------------------
cli_bare_nan() {
    run 1 "$CLI" chart --session "$FIX/bare_nan.json" --chart pct --out n.csv
    expect "NaN at line [0-9]*, column [0-9]* (byte [0-9]*) is not valid JSON: JSON has no NaN"
    expect 'hint: write it as a string, as softmaxlab does: "nan"'
    reject "sweep --out"  # re-recording needs a GPU; editing the file does not
}
cli_unknown_kernel() {
    run 1 "$CLI" chart --session "$FIX/unknown_kernel.json" --chart bandwidth --out k.csv
    expect "points\[0\].kernel: unknown kernel 'my_kernel' (this softmaxlab has naive, fused"
}
cli_unknown_subcommand() {
    run 2 "$CLI" frobnicate
    expect "error: unknown subcommand 'frobnicate'"
    expect "hint: the subcommands are list, device, run, sweep, chart"
}
cli_cols_overflow() {
    run 2 "$CLI" run --kernel fused --cols 99999999999999999999999
    expect "error: --cols 99999999999999999999999 is too large"
    reject "9223372036854775807 is outside"
    run 2 "$CLI" sweep --cols 32,99999999999999999999999
    expect "error: --cols 99999999999999999999999 is too large"
}
cli_cols_empty() {
    run 2 "$CLI" run --kernel fused --cols ""
    expect "error: --cols is empty"
    run 2 "$CLI" sweep --cols ""
    expect "error: --cols: the list is empty"
}
cli_size_overflow() {
    run 2 "$CLI" chart --session "$S" --chart pct --out s.png --size 4294967496x900
    expect "bad --size '4294967496x900': width 4294967496 is too large: the most is 8000"
    [ -e s.png ] && fail "s.png was drawn"
    return 0
}
cli_warmup_negative() {
    run 2 "$CLI" run --kernel fused --warmup -1
    expect "error: --warmup -1 is negative: it must be 0 or more"
}
cli_seed_negative() {
    run 2 "$CLI" run --kernel fused --seed -1
    expect "error: --seed -1 is negative: it must be 0 or more"
    run 2 "$CLI" sweep --seed 18446744073709551616
    expect "error: --seed 18446744073709551616 is too large: the most is 18446744073709551615"
}

# [SECTION] The viewer (under Xvfb) ---------------------------------------------------------------
viewer_long_device_name() {
    shot 0 --no-settings --screenshot name.png --session "$FIX/long_device_name.json" --lesson 1
    reject "Too many vertices"
    expect "banner: Replaying a session recorded on NNNN*…"
    png_ok name.png
}
viewer_long_reason_lesson0() {
    shot 0 --no-settings --screenshot r0.png --session "$FIX/long_reason.json" --lesson 0
    png_ok r0.png
}
viewer_long_reason_lesson1() {
    shot 0 --no-settings --screenshot r1.png --session "$FIX/long_reason.json" --lesson 1
    png_ok r1.png
}
viewer_dev_zero_session() {
    shot 1 --no-settings --screenshot z.png --session /dev/zero
    expect "banner: Cannot open session: /dev/zero is a character device"
    expect "error: --session /dev/zero could not be opened"
    png_ok z.png
}
viewer_fifo_session() {
    mkfifo pipe.json
    shot 1 --no-settings --screenshot f.png --session pipe.json
    expect "banner: Cannot open session: pipe.json is a FIFO"
    png_ok f.png
}
viewer_missing_session_exits_1() {
    shot 1 --no-settings --screenshot m.png --session no-such-file.json
    expect "banner: Cannot open session: cannot open session no-such-file.json"
    png_ok m.png
}
viewer_screenshot_side_files() {
    # Was: written in place by stb. Now through a fresh side file: a planted one is left alone.
    echo "important" > important.txt
    keep important.txt
    ln -s important.txt shot.png.partial
    ln -s important.txt shot.png.tmp
    echo "old picture" > shot.png
    shot 0 --no-settings --screenshot shot.png --session "$S"
    unchanged important.txt
    [ "$(readlink shot.png.partial)" = important.txt ] || fail "shot.png.partial was replaced"
    [ "$(readlink shot.png.tmp)" = important.txt ] || fail "shot.png.tmp was replaced"
    png_ok shot.png
    no_side_files
}
viewer_screenshot_empty() {
    # Was: an interactive window that never exited. Now an error before any window opens.
    run 2 "$VIEWER" --screenshot "" --frames 2
    expect "error: --screenshot was given an empty file name"
}
viewer_lesson_negative() {
    run 2 "$VIEWER" --lesson -1 --screenshot l.png
    expect "error: --lesson -1 is negative: it must be 0 or more"
    reject "[0-9]\{40\}"  # no 310-digit bound
}
viewer_lesson_not_a_number() {
    run 2 "$VIEWER" --lesson abc --screenshot l.png
    expect "error: --lesson 'abc' is not a whole number"
    run 2 "$VIEWER" --lesson 99999999999999999999999 --screenshot l.png
    expect "error: --lesson 99999999999999999999999 is too large: the most is 999"
}
viewer_export_never_overwrites() {
    mkdir -p "$HOME/softmaxlab-exports"
    echo mine > "$HOME/softmaxlab-exports/softmaxlab-bandwidth.png"
    keep "$HOME/softmaxlab-exports/softmaxlab-bandwidth.png"
    shot 0 --no-settings --screenshot e.png --session "$S" --dialog export
    expect "dialog: Export chart: $HOME/softmaxlab-exports/softmaxlab-bandwidth-2.png"
    unchanged "$HOME/softmaxlab-exports/softmaxlab-bandwidth.png"
    png_ok e.png
}
viewer_save_never_overwrites() {
    mkdir -p "$HOME/softmaxlab-exports"
    echo "my notes" > "$HOME/softmaxlab-exports/session.json"
    keep "$HOME/softmaxlab-exports/session.json"
    shot 0 --no-settings --screenshot s.png --session "$S" --dialog save
    expect "dialog: Save session: $HOME/softmaxlab-exports/session-2.json"
    unchanged "$HOME/softmaxlab-exports/session.json"
    png_ok s.png
}
viewer_corrupt_settings_set_aside() {
    printf '{"theme": "light", "font_scale": 1.4, oops' > settings.json
    cp settings.json original.json
    shot 0 --settings settings.json --screenshot c.png --session "$S"
    expect "banner: settings file settings.json is not valid JSON; it was kept as settings.json.corrupt-1"
    cmp -s settings.json.corrupt-1 original.json || fail "the corrupt file was not kept as it was"
    grep -q '"theme"' settings.json || fail "no fresh settings file was written"
    # A second corrupt file goes to -2; -1 is never overwritten.
    cp original.json settings.json
    shot 0 --settings settings.json --screenshot c.png --session "$S"
    expect "kept as settings.json.corrupt-2"
    cmp -s settings.json.corrupt-1 original.json || fail "settings.json.corrupt-1 was overwritten"
    png_ok c.png
}

command -v "$CASE" >/dev/null 2>&1 || fail "no such case"
"$CASE"
echo "ok: $CASE"
