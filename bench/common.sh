# Sourced by the bench scripts (after setting $bin and $work): one way to
# generate a trace of a given size and one way to time a command.

# The trace of every entity kind: 1111 containers on 3 levels (10 x 10 x
# 10), each level with states and a variable, the leaves with pushed states
# nested up to 3 deep, punctual events and links.
every_kind=(--nested --nesting 3 --punctual --links --variables --inner)
shape=(--depth 3 --arity 10 --values 10)

# generate_mb MB FILE [GENERATE_OPTIONS...]: a trace of about MB megabytes
# of `shape` (plus the options); the size of an event line depends on the
# mix, so it is measured on a sample first.
generate_mb() {
  local mb=$1 file=$2 events
  shift 2
  "$bin" generate "${shape[@]}" "$@" --events 1000000 -o "$file"
  events=$(awk -v mb="$mb" -v b="$(stat -c %s "$file")" 'BEGIN { printf "%d", mb * 1e6 / (b / 1e6) }')
  echo "generating ~${mb} MB (${events} event lines): generate ${shape[*]} $*"
  "$bin" generate "${shape[@]}" "$@" --events "$events" -o "$file"
}

# Event lines of a generated trace: all but the header, the definitions and
# the creations (ids 0..7).
event_lines() { LC_ALL=C grep -c -v -E '^(%|[0-7] )' "$1"; }

# measure CMD... runs CMD (standard output dropped) under GNU time -v and
# prints "wall_seconds cpu_seconds peak_rss_kb" (CPU: user + system; the
# peak is the largest process's, so under mpirun the largest rank's). Its
# report and CMD's standard error go to $time_file (default
# $work/time.txt). A failing command stops the script with its messages.
# The wall time is bash's clock around the run, to the microsecond: GNU
# time gives it to the hundredth of a second, 2 to 3 % of a 0.4 s read,
# enough to move a ratio across its target.
measure() {
  local report=${time_file:-$work/time.txt} start end
  start=${EPOCHREALTIME/[.,]/}  # microseconds, whatever the locale's decimal mark
  if ! /usr/bin/time -v "$@" > /dev/null 2> "$report"; then
    echo "failed: $*" >&2
    tail -25 "$report" >&2
    exit 1
  fi
  end=${EPOCHREALTIME/[.,]/}
  # The difference in integers: no absolute time goes through a double.
  awk -F': ' -v us="$(( end - start ))" '
    /User time \(seconds\)/ || /System time \(seconds\)/ { cpu += $2 }
    /Maximum resident set size/ { rss = $2 }
    END { printf "%.6f %s %s\n", us / 1e6, cpu, rss }' "$report"
}

# measure_best ROUNDS COMMAND...: measure's line of the run with the
# least wall time of ROUNDS (shared machines are noisy).
measure_best() {
  local rounds=$1 best="" line
  shift
  for (( r = 0; r < rounds; r++ )); do
    line=$(measure "$@")
    if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best=$line; fi
  done
  echo "$best"
}

# What the last measured command printed on standard error (GNU time's own
# lines start with a tab).
measured_stderr() { grep -v -e '^	' -e '^Command exited' "${time_file:-$work/time.txt}" || true; }
