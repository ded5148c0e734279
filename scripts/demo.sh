#!/usr/bin/env bash
# make demo: validate and plan the seed's lab. (The local lab joins this when
# it exists.)
set -euo pipefail
cd "$(dirname "$0")/.."
bin/benchbed validate testbeds/swiftstack-2015.hcl
bin/benchbed plan testbeds/swiftstack-2015.hcl
