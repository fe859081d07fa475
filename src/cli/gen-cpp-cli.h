/* gen-cpp-cli.h - litmus-gen --cpp (gen-cpp-cli.c).
 * SPDX-License-Identifier: MIT
 */
#ifndef GEN_CPP_CLI_H
#define GEN_CPP_CLI_H

#include <stdbool.h>

bool gen_cpp_wanted(int argc, char **argv);
int gen_cpp_main(int argc, char **argv);

#endif
