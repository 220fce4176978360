"""ns-3 worker for the cross-check: runs a list of dumbbell jobs in one
process (importing ns-3 and compiling ns3_dumbbell.cc once) and writes each
job's series.csv, events.csv and summary.json into its directory.

Usage (crosscheck.py starts it; run it by hand only to debug one job):
    .venv/bin/python ns3_run.py JOBS.json

JOBS.json is a list of objects whose keys are the arguments of
xc::RunDumbbell (see ns3_dumbbell.cc), plus "out_dir".
"""

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# The argument order of xc::RunDumbbell.
ARGS = [
    "out_dir",
    "aqm",
    "tcp_type_id",
    "n_flows",
    "rate_bps",
    "nic_bps",
    "rtt_ms",
    "qdisc_limit_pkts",
    "step_threshold_pkts",
    "duration_s",
    "sample_ms",
    "seed",
    "mss_bytes",
    "initial_cwnd_pkts",
    "del_ack_timeout_ms",
    "min_rto_ms",
    "buf_bytes",
    "ifg_bytes",
    "start_ms",
    "ecn",
    "pie_mean_pkt_size",
    "diagnostic",
]


def import_ns3():
    """`from ns import ns` (slow: loads and parses every ns-3 module), except
    for one fault of ns-3 3.44's loader (ns3/ns/__init__.py): meaning to skip
    ns-3's test libraries, it drops every library whose *full path* contains
    "test", so nothing loads from a checkout under such a directory
    (/tmp/test/..., ~/tests/...). Here the test applies to the file name."""
    import importlib.util
    import types

    locations = importlib.util.find_spec("ns3").submodule_search_locations
    path = os.path.join(list(locations)[0], "ns", "__init__.py")
    with open(path) as f:
        src = f.read()
    old = 'filter(lambda x: "test" not in x, libraries)'
    if old not in src:  # another release: its own loader as it is
        from ns import ns

        return ns
    src = src.replace(old, 'filter(lambda x: "test" not in os.path.basename(x), libraries)')
    module = types.ModuleType("ns3.ns")
    module.__file__ = path
    sys.modules["ns3.ns"] = module
    sys.modules["ns"] = module
    exec(compile(src, path, "exec"), module.__dict__)
    return module.ns


def main():
    jobs = json.load(open(sys.argv[1]))
    # ns-3's loader searches the working directory (recursively) for
    # libraries: run it from a directory with nothing else in it.
    os.chdir(os.path.dirname(os.path.abspath(sys.argv[1])))
    t0 = time.time()
    ns = import_ns3()
    import cppyy

    with open(os.path.join(HERE, "ns3_dumbbell.cc")) as f:
        cppyy.cppdef(f.read())
    print(f"ns-3 loaded in {time.time() - t0:.1f} s", file=sys.stderr, flush=True)
    for job in jobs:
        t = time.time()
        os.makedirs(job["out_dir"], exist_ok=True)
        ns.Config.Reset()
        ns.Ipv4AddressGenerator.Reset()
        err = cppyy.gbl.xc.RunDumbbell(*[job[k] for k in ARGS])
        if isinstance(err, bytes):
            err = err.decode()
        if err:
            print(f"ns-3 job {job['out_dir']}: {err}", file=sys.stderr)
            sys.exit(1)
        print(f"ns-3 {os.path.basename(job['out_dir'])}: {time.time() - t:.1f} s",
              file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
