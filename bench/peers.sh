#!/bin/sh
# The other guards `npm run bench` compares the hook process with, installed beside the bench
# only (bench/.peers, ignored by git), at pinned versions. dcg is not installed here: it needs a
# nightly toolchain and a pinned webpki-roots (cargo +nightly install destructive_command_guard,
# about 16 minutes); the bench measures it when `dcg` is on PATH or in ~/.cargo/bin.
set -eu
cd "$(dirname "$0")"
mkdir -p .peers
cd .peers
[ -f package.json ] || printf '{ "private": true }\n' > package.json
npm install --ignore-scripts --no-audit --no-fund --save-exact cc-safety-net@2.4.5
