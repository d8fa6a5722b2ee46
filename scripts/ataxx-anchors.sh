#!/usr/bin/env bash
# Copied from the lead's /work/shared/tools/ataxx-anchors.sh (session of issue 17) so that the project runs
# matches from its own files; keep the two in step when either changes.
# Builds the Ataxx community's match runner and reference engines under $A (default /tmp/ataxx):
# libataxx (perft reference), cuteataxx (match runner: openings, clocks, SPRT, PGN) and Zataxx (a
# strong NNUE engine), from git directories of their public repositories kz04px/libataxx,
# kz04px/cuteataxx and zzzzz151/Zataxx:
#   LIBATAXX_GIT=... CUTEATAXX_GIT=... ZATAXX_GIT=... ataxx-anchors.sh
# (each a git directory: a bare repository or the .git folder of a clone). Each step is skipped
# when its result exists. Then ataxx-match.sh runs matches.
set -eu
A=${A:-/tmp/ataxx}
for v in LIBATAXX_GIT CUTEATAXX_GIT ZATAXX_GIT; do
  [ -n "${!v:-}" ] && [ -d "${!v}" ] || { echo "set $v to a git directory of that repository"; exit 1; }
done

# 0. prerequisites (cmake was missing on this machine; retry once on a transient dpkg error)
if ! command -v cmake > /dev/null || ! dpkg -s libboost-dev nlohmann-json3-dev doctest-dev > /dev/null 2>&1; then
  apt-get update && { apt-get install -y cmake libboost-dev nlohmann-json3-dev doctest-dev ||
                      apt-get install -y cmake libboost-dev nlohmann-json3-dev doctest-dev; }
fi

# 1. unpack the sources
mkdir -p "$A/libataxx" "$A/cuteataxx" "$A/Zataxx"
[ -f "$A/libataxx/CMakeLists.txt" ] || git --git-dir="$LIBATAXX_GIT" archive HEAD | tar -x -C "$A/libataxx"
[ -f "$A/Zataxx/Cargo.toml" ] || git --git-dir="$ZATAXX_GIT" archive HEAD | tar -x -C "$A/Zataxx"
if [ ! -f "$A/cuteataxx/CMakeLists.txt" ]; then
  # archive only the paths whose blob exists (a partial copy may lack some blobs)
  G="$CUTEATAXX_GIT"
  git --git-dir="$G" ls-tree -r HEAD | while read -r mode type sha path; do
    git --git-dir="$G" cat-file -e "$sha" 2>/dev/null && printf '%s\n' "$path"
  done > "$A/cuteataxx-paths.txt"
  xargs -d '\n' git --git-dir="$G" archive HEAD -- < "$A/cuteataxx-paths.txt" | tar -x -C "$A/cuteataxx"
fi

# 2. libataxx (-O3 -march=native, LTO; ~2 min with make -j1)
if [ ! -x "$A/libataxx/build/examples/perft" ]; then
  mkdir -p "$A/libataxx/build"
  (cd "$A/libataxx/build" && cmake .. -DCMAKE_BUILD_TYPE=Release && make -j1)
fi
"$A/libataxx/build/examples/perft" 5 | tail -1

# 3. cuteataxx (FetchContent offline: libataxx from step 2, 4-line stub projects for nlohmann json
#    and doctest whose headers come from the Debian packages)
mkdir -p "$A/stubs/json" "$A/stubs/doctest"
cat > "$A/stubs/json/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.12)
project(json_stub LANGUAGES CXX)
add_library(nlohmann_json INTERFACE)
add_library(nlohmann_json::nlohmann_json ALIAS nlohmann_json)
EOF
cat > "$A/stubs/doctest/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.12)
project(doctest_stub LANGUAGES CXX)
add_library(doctest INTERFACE)
add_library(doctest::doctest ALIAS doctest)
EOF
if [ ! -x "$A/cuteataxx/build/cuteataxx-cli" ]; then
  mkdir -p "$A/cuteataxx/build"
  (cd "$A/cuteataxx/build" &&
   cmake .. -DCMAKE_BUILD_TYPE=Release -DFETCHCONTENT_FULLY_DISCONNECTED=ON \
     -DFETCHCONTENT_SOURCE_DIR_LIBATAXX="$A/libataxx" -DFETCHCONTENT_SOURCE_DIR_JSON="$A/stubs/json" \
     -DFETCHCONTENT_SOURCE_DIR_DOCTEST="$A/stubs/doctest" &&
   make -j2 cuteataxx-cli)
fi

# 4. Zataxx (crates rand + arrayvec from the Rust registry)
#    Built as its README says (`cargo rustc --release -- -C target-cpu=native`): with AVX2 its
#    evaluation runs about 2.6x as fast as a plain `cargo build --release` (bench 10 on a 2-core
#    machine: 1.57M against 0.60M nodes/s). The plain build prints "Warning: not using avx2" and
#    is no fair anchor; matches before 2026-11-28 met that plain build (results/ataxx/README.md).
if [ ! -x "$A/Zataxx/target-native/release/zataxx" ]; then
  (cd "$A/Zataxx" && RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR="$A/Zataxx/target-native" cargo build --release)
fi
printf 'position startpos\nperft 5\nquit\n' | "$A/Zataxx/target-native/release/zataxx" | grep -i "nodes\|avx2" | tail -2
echo "built: $A/libataxx/build/examples/perft $A/cuteataxx/build/cuteataxx-cli $A/Zataxx/target-native/release/zataxx"
