"""python3 -m rocprofsys [options] -- script.py [args]: profile a script (upstream's options).

rocprof-sys-python runs this module twice: first with ROCPROFSYS_PYTHON_PREFLIGHT=1, outside the
profiler, to check the options, find the script and compile it (bad input stops there, before a
run starts or any output is written; the settings the run needs are printed as NAME=VALUE lines),
then under rocprof-sys-run to profile the script.
"""

import argparse
import os
import sys
import traceback


def _str2bool(v):
    if isinstance(v, bool):
        return v
    if v.lower() in ("yes", "true", "t", "y", "1", "on"):
        return True
    if v.lower() in ("no", "false", "f", "n", "0", "off"):
        return False
    raise argparse.ArgumentTypeError("Boolean value expected.")


def _bool_option(parser, *names, help):
    """An option that is off by default, on when given alone, or set by a BOOL value."""
    parser.add_argument(*names, type=_str2bool, nargs="?", metavar="BOOL", const=True, default=False, help=help)


def parse_args(args):
    parser = argparse.ArgumentParser(
        "rocprofsys",
        add_help=True,
        epilog="usage: {} -m rocprofsys <ROCPROFSYS_ARGS> -- <SCRIPT> <SCRIPT_ARGS>".format(
            os.path.basename(sys.executable)
        ),
    )
    parser.add_argument("-v", "--verbosity", type=int, default=0, help="Logging verbosity")
    parser.add_argument(
        "-b",
        "--builtin",
        action="store_true",
        help=(
            "Put 'profile' in the builtins. Use '@profile' to decorate a single function, "
            "or 'with profile:' to profile a single section of code."
        ),
    )
    parser.add_argument("-c", "--config", default=None, type=str, metavar="FILE", help="rocprof-sys configuration file")
    parser.add_argument("-s", "--setup", default=None, metavar="FILE", help="Code to execute before the code to profile")
    _bool_option(parser, "-F", "--full-filepath", help="Encode the full function filename (instead of basename)")
    parser.add_argument(
        "--label",
        type=str,
        choices=("args", "file", "line"),
        nargs="*",
        default=[],
        help="Encode the function arguments, filename, and/or line number into the profiling function label",
    )
    for short, long, metavar, text in (
        ("-I", "--function-include", "FUNC", "Include any entries with these function names"),
        ("-E", "--function-exclude", "FUNC", "Filter out any entries with these function names"),
        ("-R", "--function-restrict", "FUNC", "Select only entries with these function names"),
        ("-MI", "--module-include", "FILE", "Include any entries from these files"),
        ("-ME", "--module-exclude", "FILE", "Filter out any entries from these files"),
        ("-MR", "--module-restrict", "FILE", "Select only entries from these files"),
    ):
        parser.add_argument(short, long, type=str, nargs="+", metavar=metavar, default=[], help=text)
    _bool_option(parser, "--trace-c", help="Enable profiling C functions")
    _bool_option(parser, "-a", "--annotate-trace", help="Enable perfetto debug annotations")
    return parser.parse_args(args)


class InputError(Exception):
    """Bad input: the message is printed as Python prints the exception, the exit code is 1."""


def split_command(main_args):
    """(options, script argv) from sys.argv, upstream's rules; raises InputError."""
    if "--" in main_args:
        idx = main_args.index("--")
        opts = parse_args(main_args[1:idx])
        argv = main_args[idx + 1 :]
    elif "-h" in main_args or "--help" in main_args:
        opts = parse_args(main_args[1:])
        argv = []
    else:
        argv = main_args[1:]
        opts = parse_args([])
        if len(argv) == 0 or not os.path.isfile(argv[0]):
            argv = None
    if not argv:
        raise InputError(
            "RuntimeError: Could not determine input script in '{}'. Use '--' before "
            "the script and its arguments to ensure correct parsing. \nE.g. "
            "python -m rocprofsys -- ./script.py".format(" ".join(main_args[main_args.index("--") + 1 :] if "--" in main_args else main_args[1:]))
        )
    return opts, argv


def find_script(script_name):
    """The script's path; $PATH is searched when it is not a file."""
    if os.path.isfile(script_name):
        return script_name
    for d in os.getenv("PATH", os.defpath).split(os.pathsep):
        if d and os.path.isfile(os.path.join(d, script_name)):
            return os.path.join(d, script_name)
    raise InputError("Could not find script %s" % script_name)


def compile_script(path):
    with open(path, "rb") as f:
        return compile(f.read(), path, "exec")


def preflight(main_args):
    """Checks everything that can be checked before the run; prints the run's settings."""
    opts, argv = split_command(main_args)
    script = os.path.realpath(find_script(argv[0]))
    try:
        compile_script(script)
    except (SyntaxError, ValueError) as e:  # ValueError: null bytes (not a Python script)
        sys.stderr.write("".join(traceback.format_exception_only(type(e), e)))
        return 1
    if opts.setup is not None:
        find_script(opts.setup)
    # the interpreter itself: a wrapper in front of it (pyenv's shims) is not the program to profile
    print("ROCPROFSYS_PYTHON_INTERPRETER=" + sys.executable)
    print("ROCPROFSYS_PYTHON_SCRIPT_FILE=" + script)
    print("ROCPROFSYS_COMMAND_LINE=" + " ".join([script] + argv[1:]))
    if opts.config is not None:
        files = [f for f in (os.environ.get("ROCPROFSYS_CONFIG_FILE", ""), opts.config) if f]
        print("ROCPROFSYS_CONFIG_FILE=" + ":".join(files))
    return 0


def configure(opts):
    from .profiler import config

    config.trace_c = opts.trace_c
    config.include_args = "args" in opts.label
    config.include_line = "line" in opts.label
    config.include_filename = "file" in opts.label
    config.full_filepath = opts.full_filepath
    config.include_functions += opts.function_include
    config.include_modules += opts.module_include
    config.exclude_functions += opts.function_exclude
    config.exclude_modules += opts.module_exclude
    config.restrict_functions += opts.function_restrict
    config.restrict_modules += opts.module_restrict
    config.annotate_trace = opts.annotate_trace
    config.verbosity = opts.verbosity


def main(main_args):
    opts, argv = split_command(main_args)
    script = find_script(argv[0])
    configure(opts)
    os.environ["ROCPROFSYS_PYTHON_SCRIPT_FILE"] = os.path.realpath(script)
    if opts.verbosity > 0:
        print("[rocprofsys]> profiling: {}".format(argv))

    import builtins
    from .profiler import FakeProfiler, Profiler

    if opts.setup is not None:
        # setup code runs outside the profiler (large imports, say)
        setup = find_script(opts.setup)
        sys.path.insert(0, os.path.dirname(setup))
        ns = {"__file__": setup, "__name__": "__main__"}
        exec(compile_script(setup), ns, ns)

    prof = Profiler()
    fake = FakeProfiler()
    builtins.__dict__["profile"] = prof
    builtins.__dict__["noprofile"] = fake
    builtins.__dict__["trace"] = prof
    builtins.__dict__["notrace"] = fake

    sys.argv[:] = [script] + argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    code = compile_script(script)
    # the script gets a __main__ module of its own (pickle and multiprocessing look names up there)
    import types

    this = sys.modules["__main__"]
    module = types.ModuleType("__main__")
    module.__file__ = script
    module.__builtins__ = builtins
    sys.modules["__main__"] = module
    if not opts.builtin:
        prof.start()
    try:
        exec(code, module.__dict__)
    finally:
        del this
        if not opts.builtin:
            prof.stop()


def _entry():
    try:
        if os.environ.pop("ROCPROFSYS_PYTHON_PREFLIGHT", "") == "1":
            return preflight(sys.argv)
        main(sys.argv)
        return 0
    except InputError as e:
        sys.stderr.write(str(e) + "\n")
        return 1


if __name__ == "__main__":
    sys.exit(_entry())
