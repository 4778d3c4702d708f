#!/bin/sh
# Generates configure and Makefile.in; they are never committed.
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
autoreconf -fi
