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


class Module:
    """``-m NAME``: a module run as python runs it (a package runs its ``__main__``)."""

    def __init__(self, name):
        import importlib.util

        self.name = name
        try:
            spec = importlib.util.find_spec(name)
            if spec is not None and spec.submodule_search_locations is not None:
                spec = importlib.util.find_spec(name + ".__main__")
            code = spec.loader.get_code(spec.name) if spec is not None and spec.loader is not None else None
        except (ImportError, AttributeError, ValueError) as e:
            raise InputError("{}: Error while finding module specification for '{}' ({}: {})".format(
                sys.executable, name, type(e).__name__, e))
        if spec is None or code is None:
            raise InputError("{}: No module named {}".format(sys.executable, name))
        self.spec = spec
        self.code = code

    @property
    def path(self):
        return self.spec.origin


def split_module(argv):
    """(module or None, script argv): ``-m NAME args`` as python reads it (``-mNAME`` too)."""
    if argv and argv[0].startswith("-m"):
        name = argv[0][2:] or (argv[1] if len(argv) > 1 else "")
        rest = argv[1:] if argv[0] != "-m" else argv[2:]
        if not name:
            raise InputError("Argument expected for the -m option")
        return Module(name), rest
    return None, argv


def compile_script(path):
    with open(path, "rb") as f:
        return compile(f.read(), path, "exec")


def preflight(main_args):
    """Checks everything that can be checked before the run; prints the run's settings."""
    opts, argv = split_command(main_args)
    try:
        module, args = split_module(argv)
        if module is not None:
            script = module.path
        else:
            script = os.path.realpath(find_script(argv[0]))
            compile_script(script)
            args = argv[1:]
    except (SyntaxError, ValueError) as e:  # ValueError: null bytes (not a Python script)
        sys.stderr.write("".join(traceback.format_exception_only(type(e), e)))
        return 1
    if opts.setup is not None:
        find_script(opts.setup)
    # the interpreter itself: a wrapper in front of it (pyenv's shims) is not the program to profile
    print("ROCPROFSYS_PYTHON_INTERPRETER=" + sys.executable)
    print("ROCPROFSYS_PYTHON_SCRIPT_FILE=" + script)
    print("ROCPROFSYS_COMMAND_LINE=" + " ".join([script] + args))
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
    module, args = split_module(argv)
    script = module.path if module is not None else find_script(argv[0])
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

    # the script gets a __main__ module of its own (pickle and multiprocessing look names up there)
    import types

    this = sys.modules["__main__"]
    main_module = types.ModuleType("__main__")
    main_module.__builtins__ = builtins
    if module is not None:
        # as python -m: argv[0] is the module's file, sys.path[0] the working directory (as for
        # this package's own -m), and the module knows its spec
        sys.argv[:] = [script] + args
        code = module.code
        main_module.__file__ = script
        main_module.__spec__ = module.spec
        main_module.__loader__ = module.spec.loader
        main_module.__package__ = module.spec.parent
    else:
        # as python script.py: argv[0] as given, __file__ absolute, sys.path[0] the script's real folder
        sys.argv[:] = [script] + argv[1:]
        sys.path.insert(0, os.path.dirname(os.path.realpath(script)))
        code = compile_script(os.path.abspath(script))
        main_module.__file__ = os.path.abspath(script)
    sys.modules["__main__"] = main_module
    if not opts.builtin:
        prof.start()
    try:
        exec(code, main_module.__dict__)
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
