#!/bin/sh
# meson install script: every manual page, from iotriage-docgen (the tool's
# path is the argument), into $MESON_INSTALL_DESTDIR_PREFIX/share/man/man1.
set -eu
dir="${MESON_INSTALL_DESTDIR_PREFIX}/share/man/man1"
mkdir -p "$dir"
"$1" man "$dir"
