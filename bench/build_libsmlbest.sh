#!/bin/bash
# Builds libsmlbest.so: `best` behind the small C entry point of bench/best_capi.cu, which
# bench/peers.py loads with ctypes. For Hopper (sm_90). Run from the repository root.
#
# Usage: bash bench/build_libsmlbest.sh [OUTPUT] [ROOT]
#   OUTPUT defaults to /tmp/libsmlbest.so. ROOT (default .) is the tree to build from: another
#   version of best for bench/ab_best.sh, as a folder holding its kernels/ (and common/, where
#   that version has it) and bench/best_capi.cu.
# Every unit of kernels/ (best's in kernels/best/, the launch and registry code the entry point
# reads the GPU's limits with) compiles in parallel, then they link into one library.
#
# Usage: bash bench/build_libsmlbest.sh --trial DIR BASE=ROOT [NAME=ROOT|NAME=PATCH ...]
#   Several versions of best for one bench/ab_libs.py run, built as one: DIR/BASE.so from ROOT,
#   then DIR/NAME.so for each variant, a tree or a patch (git diff; applied to a copy of BASE's
#   tree under DIR). BASE's units compile once; a variant compiles only the units whose source
#   or any file they include (BASE's dependency lists) it changed or adds, and links them with
#   BASE's others. A trial of four variants of kernels/best/ compiles the whole tree once and
#   best's units four times, not the whole tree five times. DIR must be new or empty.
#   For example, on the device machine:
#     bash bench/build_libsmlbest.sh --trial /tmp/trial old=. A=/tmp/a.diff B=tmp_b
#     python3 bench/ab_libs.py --draw 36000:330000:12 old=/tmp/trial/old.so A=/tmp/trial/A.so ...
#   Each library's units are listed in DIR/NAME.units ("compiled" or "from BASE"), and a
#   unit's compiler messages in DIR/obj/NAME/<unit>.log.
# SML_NVCC and SML_CXX name the compilers (default nvcc and g++).
set -o pipefail
NVCC=${SML_NVCC:-nvcc}
CXX=${SML_CXX:-g++}

# The units of the tree at $1, relative to it, one a line.
units() {
    local f
    echo bench/best_capi.cu
    for f in "$1"/kernels/*.cu "$1"/kernels/*.cpp "$1"/kernels/best/*.cu; do
        [ -f "$f" ] && echo "${f#"$1"/}"  # kernels/best/ is absent in older versions
    done
}

# compile ROOT UNIT OBJECT DEPFILE: the one build line of a unit; the files it includes are
# written to DEPFILE (make's format).
compile() {
    local deps=(-MD -MF "$4")
    if [[ $2 == *.cpp ]]; then
        "$CXX" -O3 -std=c++20 -fPIC -DSML_HAVE_CUDA=1 -I"$1" -I/usr/local/cuda/include \
            "${deps[@]}" -c "$1/$2" -o "$3"
    else
        "$NVCC" -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -lineinfo -Xcompiler -fPIC \
            -DSML_HAVE_CUDA=1 -I"$1" "${deps[@]}" -c "$1/$2" -o "$3"
    fi
}

link() {  # OUTPUT OBJECT...
    local out=$1
    shift
    "$NVCC" -arch=sm_90 -shared "$@" -o "$out"
}

# The object's name for a unit: kernels/best/grid.cu -> kernels_best_grid.cu.o
object_name() { echo "$(echo "$1" | tr / _).o"; }

# The plain build is a trial of one library, built in a folder of its own and copied to OUTPUT:
# one way to compile, wait for and name the units either way.
PLAIN_OUTPUT=
ME="build_libsmlbest --trial"
if [ "$1" != "--trial" ]; then
    PLAIN_OUTPUT=${1:-/tmp/libsmlbest.so}
    ROOT=${2:-.}
    ME=build_libsmlbest
    [ -f "$ROOT/kernels/best_softmax.cu" ] || {
        echo "$ME: $ROOT has no kernels/best_softmax.cu; give a tree of best" >&2
        exit 2
    }
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
    set -- --trial "$WORK/build" "libsmlbest=$ROOT"
fi

# --trial DIR BASE=ROOT [NAME=ROOT|NAME=PATCH ...]
fail() { echo "$ME: $*" >&2; exit 2; }
shift
DIR=$1
shift || true
if [ -z "$DIR" ] || [ $# -lt 1 ]; then
    fail "give a folder and at least one library, e.g. --trial /tmp/trial old=. new=/tmp/new.diff"
fi
if [ -e "$DIR" ] && [ -n "$(ls -A "$DIR" 2>/dev/null)" ]; then
    fail "$DIR is not empty; give a new folder (nothing in it is replaced)"
fi
mkdir -p "$DIR" || fail "cannot create $DIR"
DIR=$(cd "$DIR" && pwd)
[[ $DIR != *[[:space:]]* ]] || fail "$DIR: give a folder whose path has no spaces"
names=()
roots=()
for spec in "$@"; do
    name=${spec%%=*}
    src=${spec#*=}
    [[ $spec == *=* && -n $name && -n $src ]] || fail "$spec: give NAME=ROOT or NAME=PATCH"
    [[ $name =~ ^[A-Za-z0-9_.-]+$ ]] || fail "$spec: a name of letters, digits, '_', '.', '-'"
    for n in "${names[@]}"; do [ "$n" != "$name" ] || fail "$spec: the name $name is given twice"; done
    if [ -d "$src" ]; then
        [ -f "$src/kernels/best_softmax.cu" ] || fail "$spec: $src has no kernels/best_softmax.cu"
        roots+=("$(cd "$src" && pwd)")
    elif [ -f "$src" ]; then
        [ ${#names[@]} -gt 0 ] || fail "$spec: the first library (the base) must be a tree"
        tree="$DIR/src/$name"
        mkdir -p "$tree"
        parts=(kernels bench/best_capi.cu)
        [ -d "${roots[0]}/common" ] && parts+=(common)
        (cd "${roots[0]}" && tar -cf - "${parts[@]}") | tar -xf - -C "$tree" ||
            fail "$spec: cannot copy the base's tree"
        patch_file=$(cd "$(dirname "$src")" && pwd)/$(basename "$src")
        # git apply outside any repository applies to the files under the current folder.
        (cd "$tree" && GIT_DIR=/nonexistent git apply --whitespace=nowarn "$patch_file") ||
            fail "$spec: $src does not apply to the base's tree"
        roots+=("$tree")
    else
        fail "$spec: no such folder or patch: $src"
    fi
    names+=("$name")
done

# The files under both trees that differ between them (or are in one only), relative, one a line.
changed_files() {
    local f
    { (cd "$1" && find kernels common bench/best_capi.cu -type f 2>/dev/null)
      (cd "$2" && find kernels common bench/best_capi.cu -type f 2>/dev/null); } | sort -u |
        while read -r f; do cmp -s "$1/$f" "$2/$f" || echo "$f"; done
}

BASE=${names[0]}
BASE_ROOT=${roots[0]}
# compile_unit NAME ROOT UNIT: into DIR/obj/NAME, its messages in <object>.log and the files it
# includes, normalized, one a line, in <object>.deps.
compile_unit() {
    local obj
    obj="$DIR/obj/$1/$(object_name "$3")"
    compile "$2" "$3" "$obj" "$obj.d" >"$obj.log" 2>&1 || return 1
    sed -e 's/\\$//' -e 's/^[^:]*://' "$obj.d" | tr ' ' '\n' | grep -v '^$' |
        xargs -r realpath -m -s >"$obj.deps"
}
# Waits for the pids given; then says which units of NAME failed (each "NAME UNIT"), non-zero if any.
wait_units() {
    local pid status=0 name u log
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    pids=()
    for job in "${jobs_run[@]}"; do
        name=${job%% *}
        u=${job#* }
        [ -f "$DIR/obj/$name/$(object_name "$u").deps" ] && continue
        log="$DIR/obj/$name/$(object_name "$u").log"
        if [ -n "$PLAIN_OUTPUT" ]; then  # its folder goes when the build ends: all of it here
            echo "$ME: $u failed to compile:" >&2
            cat "$log" >&2
        else
            echo "$ME: $name: $u failed to compile ($log):" >&2
            tail -20 "$log" >&2
        fi
        status=1
    done
    jobs_run=()
    return $status
}

pids=()
jobs_run=()
mapfile -t base_units < <(units "$BASE_ROOT")
echo "$BASE: compiling ${#base_units[@]} units"
mkdir -p "$DIR/obj/$BASE"
for u in "${base_units[@]}"; do
    compile_unit "$BASE" "$BASE_ROOT" "$u" &
    pids+=($!)
    jobs_run+=("$BASE $u")
done
wait_units || exit 1
printf '%s compiled\n' "${base_units[@]}" >"$DIR/$BASE.units"

# Each variant's units: compiled again where they or a file they include changed, else BASE's.
# Every variant's units compile at once, then each library links.
declare -A objects_of
for i in $(seq 1 $((${#names[@]} - 1))); do
    name=${names[$i]}
    root=${roots[$i]}
    mapfile -t changed < <(changed_files "$BASE_ROOT" "$root")
    mkdir -p "$DIR/obj/$name"
    : >"$DIR/$name.units"
    objects=()
    again=0
    while read -r u; do
        base_obj="$DIR/obj/$BASE/$(object_name "$u")"
        redo=0
        [ -f "$base_obj.deps" ] || redo=1
        for f in "${changed[@]}"; do
            if [ "$f" = "$u" ] || grep -qxF "$BASE_ROOT/$f" "$base_obj.deps" 2>/dev/null; then
                redo=1
                break
            fi
        done
        if [ $redo -eq 1 ]; then
            compile_unit "$name" "$root" "$u" &
            pids+=($!)
            jobs_run+=("$name $u")
            objects+=("$DIR/obj/$name/$(object_name "$u")")
            echo "$u compiled" >>"$DIR/$name.units"
            again=$((again + 1))
        else
            objects+=("$base_obj")
            echo "$u from $BASE" >>"$DIR/$name.units"
        fi
    done < <(units "$root")
    objects_of[$name]="${objects[*]}"
    echo "$name: ${#changed[@]} files changed, compiling $again of ${#objects[@]} units"
done
wait_units || exit 1
link_pids=()
link "$DIR/$BASE.so" "$DIR/obj/$BASE"/*.o &
link_pids+=($!)
for name in "${names[@]:1}"; do
    # shellcheck disable=SC2086  # the objects' paths hold no spaces (DIR is checked above)
    link "$DIR/$name.so" ${objects_of[$name]} &
    link_pids+=($!)
done
status=0
for pid in "${link_pids[@]}"; do wait "$pid" || status=1; done
[ $status -eq 0 ] || { echo "$ME: a library failed to link" >&2; exit 1; }
if [ -n "$PLAIN_OUTPUT" ]; then
    cat "$DIR"/obj/*/*.log >&2  # the compilers' warnings, as a build prints them
    cp "$DIR/libsmlbest.so" "$PLAIN_OUTPUT" || { echo "$ME: cannot write $PLAIN_OUTPUT" >&2; exit 1; }
    echo "$PLAIN_OUTPUT"
    exit
fi
ls "$DIR"/*.so
