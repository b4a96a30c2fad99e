#!/bin/sh
# Runs one command under a private X server and exits with the command's own status.
#
#   xvfb.sh XVFB_RUN WxH COMMAND...
#
# Plain `xvfb-run -a` keeps its X authority file in a temporary folder it removes at exit, and
# when that removal fails it exits 5 in place of the command's status (seen once on CI: the
# viewer had exited 1 as the test wanted, and the test failed on xvfb-run's 5). Here the
# authority file lives in a folder this script makes and removes, so xvfb-run has nothing of its
# own to clean up and the status is the command's.
set -u
XVFB_RUN=$1 SIZE=$2
shift 2
dir=$(mktemp -d "${TMPDIR:-/tmp}/sml-xvfb.XXXXXX") || {
    echo "xvfb.sh: cannot make a temporary folder in ${TMPDIR:-/tmp}"
    exit 1
}
"$XVFB_RUN" -a -f "$dir/Xauthority" -s "-screen 0 ${SIZE}x24" "$@"
rc=$?
rm -rf "$dir" || echo "xvfb.sh: warning: could not remove $dir"
exit $rc
