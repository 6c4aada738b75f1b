#!/usr/bin/env bash
# Compiles the kernels of tests/loops/kernels with the system C compiler
# and records each one's memory accesses with valgrind's lackey:
#   record_lackey_traces.sh KERNEL_DIR OUTPUT
# writes OUTPUT/KERNEL (the program) and OUTPUT/KERNEL.lackey (the trace).
# The CTest fixture of the lackey tests (loops.record_lackey_traces). matmul
# and stencil are position-independent (Debian's default), fir2dim and
# trisolve linked at fixed addresses (-no-pie): both of valgrind's load
# addresses are exercised. Without cc or valgrind it writes OUTPUT/skipped
# (the reason) and succeeds: the tests then skip with that line.
set -euo pipefail

kernels=$1
output=$2
limit=60  # seconds for any one step

rm -rf "$output"
mkdir -p "$output"
for tool in cc valgrind; do
  if ! command -v "$tool" > /dev/null; then
    echo "$tool not found (Debian package ${tool/cc/gcc}; make deps installs it)" > "$output/skipped"
    cat "$output/skipped"
    exit 0
  fi
done

declare -A link=([fir2dim]=-no-pie [matmul]= [trisolve]=-no-pie [stencil]=)
for kernel in fir2dim matmul trisolve stencil; do
  # -O1 -g: the loops stay loops, the symbols stay (the arrays are named);
  # not the project's compiler and flags (a sanitizer build's would change
  # every address, and clash with valgrind).
  cc -O1 -g ${link[$kernel]} -o "$output/$kernel" "$kernels/$kernel.c"
  # The log file keeps the program's own output out of the trace. Run
  # from OUTPUT so that the Command: line names ./KERNEL, a file there.
  (cd "$output" && timeout "$limit" valgrind --tool=lackey --trace-mem=yes --log-file="$kernel.lackey.partial" \
    "./$kernel" > /dev/null)
  mv "$output/$kernel.lackey.partial" "$output/$kernel.lackey"
  echo "$kernel: $(grep -c '^ [LSM] ' "$output/$kernel.lackey") data accesses recorded"
done
