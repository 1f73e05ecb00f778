# Progress output shared by scripts/setup.sh, scripts/test.sh, the fuzz and
# bench scripts (sourced, not run). On a terminal a progress line is updated
# in place (\r); otherwise (CI logs) a line is printed only every 10% or
# every minute, so that logs stay short.

# ninja_progress: reads ninja's output on stdin and shows its [n/N] lines.
# Prints to stdout; the caller keeps ninja's full output elsewhere (tee).
ninja_progress() {
  local tty=0 cols=100
  if [ -t 1 ]; then
    tty=1
    cols=$( (stty size </dev/tty | cut -d' ' -f2) 2>/dev/null || echo 100)
    [ -n "$cols" ] && [ "$cols" -gt 20 ] 2>/dev/null || cols=100
  fi
  awk -v tty="$tty" -v cols="$cols" '
    /^\[[0-9]+\/[0-9]+\]/ {
      split(substr($1, 2, length($1) - 2), a, "/")
      n = a[1] + 0; total = a[2] + 0
      if (n == 0) next   # ninja re-checking its globs, not a build step
      pct = total ? int(n * 100 / total) : 100
      if (tty) {
        line = substr($0, 1, cols - 1)
        printf "\r\033[K%s", line
        shown = 1
      } else if (int(pct / 10) > last || n == total) {
        printf "  [%d/%d] %3d%%\n", n, total, pct
        last = int(pct / 10)
      }
      fflush()
      next
    }
    /^ninja: no work to do/ { print "  up to date"; fflush() }
    BEGIN { last = -1 }
    END { if (tty && shown) printf "\n" }'
}

# progress_counter NAME DONE TOTAL: one progress step of a script that runs
# TOTAL units (fuzz batches, bench kernels), written to stderr.
progress_counter() {
  local name="$1" done="$2" total="$3" pct
  [ "$total" -gt 0 ] || return 0
  pct=$((done * 100 / total))
  if [ -t 2 ]; then
    printf '\r\033[K%s: %d/%d (%d%%)' "$name" "$done" "$total" "$pct" >&2
    [ "$done" -lt "$total" ] || printf '\n' >&2
  elif [ $((done * 10 / total)) -gt $(((done - 1) * 10 / total)) ] ||
       [ "$done" -eq "$total" ]; then
    echo "== $name: $done/$total ($pct%)" >&2
  fi
}

# progress_watch NAME LOG [RE]: while a suite writes LOG, shows how long it
# has run and how many lines of LOG match RE (a finished test; default PASS
# and FAIL lines) so far; runs until killed (start it with & and stop it
# with progress_stop).
progress_watch() {
  local name="$1" log="$2" re="${3:-^(PASS|FAIL)}" start=$SECONDS last=$SECONDS n done
  while sleep 2; do
    n=$(grep -cE "$re" "$log" 2>/dev/null)
    # A suite that logs nothing per test (lit -s) shows its time only.
    done=""
    [ "${n:-0}" -gt 0 ] && done=", $n tests done"
    if [ -t 1 ]; then
      printf '\r\033[K  %s: %ds%s' "$name" $((SECONDS - start)) "$done"
    elif [ $((SECONDS - last)) -ge 60 ]; then
      echo "  $name: still running after $((SECONDS - start))s$done"
      last=$SECONDS
    fi
  done
}

# progress_stop PID: stops a progress_watch started by this script and clears
# its line.
progress_stop() {
  kill "$1" 2>/dev/null
  wait "$1" 2>/dev/null
  if [ -t 1 ]; then printf '\r\033[K'; fi
  return 0
}
