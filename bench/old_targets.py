"""The old architecture's cost, for `npm run bench`: a python process per bash command that
splits it with shlex and prints the files it writes, as `harness_target.py targets '<cmd>' <cwd>`
was run by the JS gates. Only the shape of the work matters here (interpreter start, shlex, a
walk over the words), not the completeness of its rules."""
import os
import shlex
import sys

WRITERS = {"tee", "rm", "mv", "cp", "install", "touch", "truncate", "ln", "rsync"}
SEPARATORS = {"&&", "||", ";", "|", "&"}


def targets(command, cwd):
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    words = list(lexer)
    found, base, argv = [], cwd, []

    def flush():
        nonlocal base
        if not argv:
            return
        name = os.path.basename(argv[0])
        if name == "cd" and len(argv) > 1:
            base = os.path.normpath(os.path.join(base, argv[1]))
        elif name in WRITERS:
            found.extend(os.path.normpath(os.path.join(base, a)) for a in argv[1:] if not a.startswith("-"))
        elif name == "sed" and any(a.startswith("-i") for a in argv[1:]):
            found.append(os.path.normpath(os.path.join(base, argv[-1])))
        argv.clear()

    redirect = False
    for word in words:
        if redirect:
            if word not in ("/dev/null",) and not word.startswith("&"):
                found.append(os.path.normpath(os.path.join(base, word)))
            redirect = False
        elif word in (">", ">>", ">|", "&>", "&>>"):
            redirect = True
        elif word in SEPARATORS:
            flush()
        else:
            argv.append(word)
    flush()
    return found


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "targets":
        sys.exit("usage: old_targets.py targets '<command>' <cwd>")
    print("\n".join(targets(sys.argv[2], sys.argv[3])))
