#!/bin/sh
# no-cmocka.sh - stands in for the unit tests when configure found no
# cmocka: a build without its unit tests must not look like a passing one.
echo "no-cmocka.sh: cmocka was not found at configure time, so the unit tests were not built." >&2
echo "no-cmocka.sh: install the Debian package libcmocka-dev and run ./configure again." >&2
exit 99
