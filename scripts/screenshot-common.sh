# Sourced by scripts/teach-screenshots.sh and scripts/lab-screenshots.sh: shot NAME WxH ARGS...
# runs the viewer under Xvfb at WxH on the newest recorded session (no GPU: the replay), saves
# its frame as $out/NAME.png in 256 colours (pngquant), and prints the path. Needs $out set;
# build/app/viewer/softmaxlab, xvfb-run and pngquant (apt-get install pngquant).
viewer=build/app/viewer/softmaxlab
session=$(ls assets/sessions/*.json | sort | tail -1)  # the newest recording
shot() {  # name, WxH, viewer args...
  local name=$1 size=$2 tmp
  shift 2
  tmp=$(mktemp --suffix=.png)
  # tests/scripts/xvfb.sh: xvfb-run with an authority file of its own, and the viewer's status.
  CUDA_VISIBLE_DEVICES= sh tests/scripts/xvfb.sh xvfb-run "$size" "$viewer" --no-settings \
    --size "$size" --frames 6 --session "$session" --screenshot "$tmp" "$@" >/dev/null 2>&1
  pngquant --force --quality 70-95 --speed 1 --output "$out/$name.png" 256 "$tmp"
  rm -f "$tmp"
  echo "$out/$name.png"
}
