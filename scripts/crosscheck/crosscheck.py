#!/usr/bin/env python3
"""Cross-check Sawtooth against ns-3 on small dumbbell scenarios.

Runs every scenario below in both simulators (Sawtooth through its CLI,
ns-3 through its Python bindings, see ns3_run.py), reads both runs'
sampled series and events the same way, and compares utilisation, mean
queueing delay, drop or mark rate and Jain's fairness against a stated
tolerance per metric. Writes results.json and results.md into the output
directory and prints the table. docs/CROSSCHECK.md explains the setup,
the model differences and every result outside its tolerance.

Run it through run.sh, which creates the ns-3 virtual environment:
    scripts/crosscheck/run.sh [--seeds 1,2,3] [--only REGEX] [--out DIR]
                              [--ns3-diagnostic prr,exit-ack]
SAWTOOTH_BIN names the sawtooth binary (default: engine-wasm's release
build, built with cargo when missing). The exit status is 1 when a result
lies outside its tolerance with no explanation recorded in EXPLAINED.

Nothing here is tuned to make the simulators agree: every value is the
scenario's, an RFC default, an ns-3 default, or the same setting given to
both simulators (the docs say which).
"""

import argparse
import csv
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# ---------------------------------------------------------------------------
# The scenarios: one dumbbell, everything below given to both simulators.

RATE_BPS = 10e6  # bottleneck
NIC_BPS = 1e9  # each sender's NIC (and ns-3's access links)
TXQUEUELEN = 1000  # Sawtooth's interface queue (never fills: NIC >> bottleneck)
MTU = 1500
MSS = 1448  # MTU - 20 (IP) - 20 (TCP) - 12 (timestamps), both simulators
FRAMING_BYTES = 38  # Sawtooth's line time per packet beyond the IP packet
PPP_BYTES = 2  # ns-3's point-to-point header
INITIAL_CWND = 10  # RFC 6928, ns-3's default
WINDOW_BYTES = 16 * 1024 * 1024  # receive window / socket buffers: never the limit
DEL_ACK_TIMEOUT_MS = 40.0  # Sawtooth's delayed-ACK timer (Linux's minimum ATO)
MIN_RTO_MS = 200.0  # Sawtooth's (and Linux's) RTO floor
DURATION_S = 60.0
WARMUP_S = 10.0  # metrics over (WARMUP_S, DURATION_S]
SAMPLE_MS = 10.0
START_SPREAD_MS = 1000.0  # flows start at times drawn from the seed in [0, START_SPREAD_MS)
SEEDS = [1, 2, 3]
PROFILE = "linux-6"
ALT_PROFILE = "sawtooth-1"  # the second-closest profile, reported for sensitivity

# Tolerances, fixed before any result was seen (docs/CROSSCHECK.md, "Tolerances").
TOLERANCE = {
    "utilisation": {"abs": 0.03},
    "qdelay_ms": {"abs": 2.0, "rel": 0.25},
    "loss_rate": {"abs": 0.0005, "factor": 1.5},
    "jain": {"abs": 0.05},
}
METRIC_NAMES = {
    "utilisation": "utilisation",
    "qdelay_ms": "mean queueing delay (ms)",
    "loss_rate": "drop rate",
    "jain": "Jain's fairness",
}

# Sawtooth algorithm -> ns-3 congestion-control TypeId.
NS3_TCP = {
    "reno": "ns3::TcpLinuxReno",
    "newreno": "ns3::TcpNewReno",
    "cubic": "ns3::TcpCubic",
    "dctcp": "ns3::TcpDctcp",
}


def scenarios():
    out = []

    def add(sid, aqm, aqm_json, buffer_pkts, cc, flows, rtt_ms=40.0, **kw):
        out.append(
            dict(
                id=sid,
                aqm=aqm,
                aqm_json=aqm_json,
                buffer_pkts=buffer_pkts,
                cc=cc,
                flows=flows,
                rtt_ms=rtt_ms,
                step_k=kw.get("step_k", 0),
                mechanisms=kw.get("mechanisms", {}),
                sawtooth_alg=kw.get("sawtooth_alg", cc),
                ecn=kw.get("ecn", False),
            )
        )

    disciplines = [
        # id, Sawtooth aqm JSON (omitted fields take the RFC defaults), buffer
        ("droptail", "drop_tail", {"kind": "drop_tail"}, 100),
        ("codel", "codel", {"kind": "codel"}, 1000),
        ("fqcodel", "fq_codel", {"kind": "fq_codel"}, 1000),
        ("pie", "pie", {"kind": "pie"}, 1000),
    ]
    for name, aqm, aqm_json, buf in disciplines:
        for cc in ["reno", "cubic"]:
            for n in [1, 4]:
                add(f"{name}-{cc}-{n}", aqm, aqm_json, buf, cc, n)
    for n in [1, 4]:
        add(
            f"step-dctcp-{n}",
            "step_mark",
            {"kind": "step_mark", "threshold_pkts": 20},
            100,
            "dctcp",
            n,
            step_k=20,
            ecn=True,
        )
    # ns-3's TcpNewReno grows cwnd per ACK (RFC 5681 without byte
    # counting); Sawtooth's per-ACK switch is the same rule.
    for n in [1, 4]:
        add(
            f"droptail-newreno-{n}",
            "drop_tail",
            {"kind": "drop_tail"},
            100,
            "newreno",
            n,
            sawtooth_alg="reno",
            mechanisms={"cwnd_counting": "per_ack"},
        )
    # Issue 23's table: one flow, 100 ms RTT, 650-packet buffer.
    for name, aqm, aqm_json in [
        ("pie", "pie", {"kind": "pie"}),
        ("codel", "codel", {"kind": "codel"}),
    ]:
        for cc in ["reno", "cubic"]:
            add(f"issue23-{name}-{cc}-1", aqm, aqm_json, 650, cc, 1, rtt_ms=100.0)
    return out


# ---------------------------------------------------------------------------
# Sawtooth


def sawtooth_scenario(sc, seed, profile):
    starts = start_times_ms(sc, seed)
    hosts = []
    for i in range(sc["flows"]):
        hosts.append(
            {
                "nic_bps": NIC_BPS,
                "txqueuelen_pkts": TXQUEUELEN,
                "flows": [
                    {
                        "algorithm": sc["sawtooth_alg"],
                        "params": {},
                        "window_bytes": WINDOW_BYTES,
                        "start_ms": starts[i],
                        "stop_ms": None,
                        "extra_delay_ms": 0.0,
                    }
                ],
            }
        )
    return {
        "version": 2,
        "seed": seed,
        "duration_ms": DURATION_S * 1000.0,
        "sample_interval_ms": SAMPLE_MS,
        "mtu_bytes": MTU,
        "rtt_ms": sc["rtt_ms"],
        "loss_rate": 0.0,
        "profile": profile,
        "mechanisms": sc["mechanisms"],
        "tcp": {
            "initial_cwnd_pkts": INITIAL_CWND,
            "initial_ssthresh_pkts": None,
            "delayed_ack": True,
            "sack": True,
        },
        "bottleneck": {
            "rate_bps": RATE_BPS,
            "buffer_pkts": sc["buffer_pkts"],
            "aqm": sc["aqm_json"],
        },
        "hosts": hosts,
    }


def find_sawtooth():
    env = os.environ.get("SAWTOOTH_BIN")
    if env:
        return env
    path = os.path.join(REPO, "engine-wasm", "target", "release", "sawtooth")
    if not os.path.exists(path):
        print("building the sawtooth CLI (cargo build --release -p sawtooth-cli)", file=sys.stderr)
        subprocess.run(
            ["cargo", "build", "--release", "-p", "sawtooth-cli"],
            cwd=os.path.join(REPO, "engine-wasm"),
            check=True,
        )
    return path


def run_sawtooth(binary, sc, seed, profile, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "scenario.json")
    with open(path, "w") as f:
        json.dump(sawtooth_scenario(sc, seed, profile), f, indent=1)
    subprocess.run(
        [binary, "run", path, "--out", out_dir],
        check=True,
        stdout=subprocess.DEVNULL,
    )


# ---------------------------------------------------------------------------
# ns-3


def start_times_ms(sc, seed):
    """Each flow's start, drawn from the seed, the same in both simulators:
    deterministic simulators with identical flows lock into one phase
    pattern (Floyd & Jacobson 1992); drawing the starts makes each seed a
    different pattern, so the means over seeds are not one phase's."""
    rng = random.Random(f"{sc['id']}/{seed}")
    if sc["flows"] == 1:
        return [0.0]
    return [round(rng.uniform(0.0, START_SPREAD_MS), 3) for _ in range(sc["flows"])]


def ns3_job(sc, seed, out_dir, diagnostic=""):
    return {
        "out_dir": out_dir,
        "aqm": sc["aqm"],
        "tcp_type_id": NS3_TCP[sc["cc"]],
        "n_flows": sc["flows"],
        "rate_bps": RATE_BPS,
        "nic_bps": NIC_BPS,
        "rtt_ms": sc["rtt_ms"],
        # Sawtooth's buffer counts the packets waiting, the one on the wire
        # not included; in ns-3 one of them waits in the device's own queue.
        "qdisc_limit_pkts": sc["buffer_pkts"] - 1,
        "step_threshold_pkts": max(sc["step_k"] - 1, 0),
        "duration_s": DURATION_S,
        "sample_ms": SAMPLE_MS,
        "seed": seed,
        "mss_bytes": MSS,
        "initial_cwnd_pkts": INITIAL_CWND,
        "del_ack_timeout_ms": DEL_ACK_TIMEOUT_MS,
        "min_rto_ms": MIN_RTO_MS,
        "buf_bytes": WINDOW_BYTES,
        "ifg_bytes": float(FRAMING_BYTES - PPP_BYTES),
        "start_ms": ",".join(repr(t) for t in start_times_ms(sc, seed)),
        "ecn": sc["ecn"],
        # PIE's "two full packets queued" test (RFC 8033 §4.1): a full packet
        # as ns-3's queue disc counts it, the IP packet.
        "pie_mean_pkt_size": MTU,
        "diagnostic": diagnostic,
    }


def start_ns3_workers(python, jobs, workers, tmp):
    """Splits the jobs over `workers` processes, balanced by cost."""
    buckets = [[] for _ in range(workers)]
    cost = [0.0] * workers
    for job in sorted(jobs, key=lambda j: -j["n_flows"]):
        i = cost.index(min(cost))
        buckets[i].append(job)
        cost[i] += 1.0 + 0.3 * job["n_flows"]
    procs = []
    for i, bucket in enumerate(buckets):
        if not bucket:
            continue
        wdir = os.path.join(tmp, f"worker{i}")
        os.makedirs(wdir, exist_ok=True)
        path = os.path.join(wdir, "jobs.json")
        with open(path, "w") as f:
            json.dump(bucket, f)
        log = open(os.path.join(wdir, "log.txt"), "w")
        procs.append(
            (
                subprocess.Popen(
                    [python, os.path.join(HERE, "ns3_run.py"), path],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                ),
                log,
            )
        )
    return procs


# ---------------------------------------------------------------------------
# Metrics, computed the same way from both simulators' files


def read_run(run_dir, n_flows, t0, t1):
    """Metrics over (t0, t1] from series.csv and events.csv."""
    thr = [[] for _ in range(n_flows)]
    delay = []
    last_t = None
    with open(os.path.join(run_dir, "series.csv")) as f:
        rows = csv.reader(f)
        header = next(rows)
        cols = [header.index(f"f{i}.throughput_bps") for i in range(n_flows)]
        dcol = header.index("q.bottleneck_delay_ms")
        for row in rows:
            t = float(row[0])
            if last_t is not None and abs(t - last_t) < 1e-9:
                continue
            last_t = t
            if t <= t0 + 1e-9 or t > t1 + 1e-9:
                continue
            for i, c in enumerate(cols):
                thr[i].append(float(row[c]))
            delay.append(float(row[dcol]))
    drops = marks = 0
    timeouts = fast_rtx = 0
    with open(os.path.join(run_dir, "events.csv")) as f:
        rows = csv.reader(f)
        next(rows)
        for row in rows:
            t, kind = float(row[0]), row[2]
            if kind == "Timeout":
                timeouts += 1
            elif kind == "FastRetransmit":
                fast_rtx += 1
            if t <= t0 or t > t1:
                continue
            if kind == "NetworkLoss":
                drops += 1
            elif kind == "EcnMark":
                marks += 1
    means = [sum(x) / len(x) for x in thr]
    interval_s = SAMPLE_MS / 1000.0
    delivered_pkts = sum(sum(x) for x in thr) * interval_s / 8.0 / MSS
    arrivals = delivered_pkts + drops
    total = sum(means)
    jain = total * total / (n_flows * sum(m * m for m in means)) if total > 0 else float("nan")
    return {
        "utilisation": total / RATE_BPS,
        "qdelay_ms": sum(delay) / len(delay),
        "drop_rate": drops / arrivals if arrivals else 0.0,
        "mark_rate": marks / arrivals if arrivals else 0.0,
        "jain": jain,
        "flow_share": [m / total if total else 0.0 for m in means],
        "timeouts": timeouts,
        "fast_retransmits": fast_rtx,
    }


def retransmission_rate(run_dir, simulator):
    s = json.load(open(os.path.join(run_dir, "summary.json")))
    if simulator == "sawtooth":
        # Sawtooth's summary gives retransmits and their rate per flow, so
        # segments sent = retransmits / rate; a flow with no retransmission
        # adds nothing to either sum (a slight overestimate of the rate).
        rtx = sum(f["retransmits"] for f in s["flows"])
        sent = sum(
            f["retransmits"] / f["retransmission_rate"] if f["retransmission_rate"] else 0.0
            for f in s["flows"]
        )
    else:
        rtx = sum(f["retransmits"] for f in s["flows"])
        sent = sum(f["segments_sent"] for f in s["flows"])
    return rtx / sent if sent else 0.0


def mean(xs):
    return sum(xs) / len(xs)


def judge(metric, saw, ns3):
    """(difference, tolerance text, within?) for one metric."""
    tol = TOLERANCE[metric]
    if any(isinstance(v, float) and math.isnan(v) for v in (saw, ns3)):
        return float("nan"), "", True
    diff = saw - ns3
    if metric == "qdelay_ms":
        bound = max(tol["abs"], tol["rel"] * abs(ns3))
        return diff, f"±{bound:.1f} ms", abs(diff) <= bound
    if metric == "loss_rate":
        within = abs(diff) <= tol["abs"] or (
            min(saw, ns3) > 0 and max(saw, ns3) / min(saw, ns3) <= tol["factor"]
        )
        return diff, f"×{tol['factor']} or ±{tol['abs'] * 100:.2f} pp", within
    return diff, f"±{tol['abs']}", abs(diff) <= tol["abs"]


# Why a result lies outside its tolerance: filled in from the analysis in
# docs/CROSSCHECK.md (section named in brackets), never used to decide
# whether a result passes.
PRR = "ns-3 3.44's PRR (CROSSCHECK.md §A)"
PRR_EXIT = "ns-3 3.44's PRR and its growth on the ACK ending recovery (§A, §B)"
EXPLAINED = {
    ("droptail-cubic-1", "qdelay_ms"): PRR,
    ("droptail-cubic-1", "loss_rate"): PRR,
    ("droptail-cubic-4", "loss_rate"): PRR,
    ("codel-cubic-1", "utilisation"): PRR,
    ("fqcodel-cubic-1", "utilisation"): PRR,
    ("fqcodel-reno-4", "loss_rate"): PRR,
    ("fqcodel-cubic-4", "utilisation"): PRR,
    ("fqcodel-cubic-4", "loss_rate"): PRR,
    ("pie-reno-4", "loss_rate"): PRR,
    ("codel-reno-1", "utilisation"): PRR_EXIT,
    ("fqcodel-reno-1", "utilisation"): PRR_EXIT,
    # §B raises ns-3's utilisation, §A's fault lowers it in part: PRR alone
    # corrected widens the gap, both corrected close it (CROSSCHECK.md §B).
    ("fqcodel-reno-4", "utilisation"): PRR_EXIT,
    ("issue23-pie-cubic-1", "qdelay_ms"): "in part ns-3's device queue (§C); the rest open",
}


# ---------------------------------------------------------------------------


def fmt(metric, v):
    if isinstance(v, float) and math.isnan(v):
        return "–"
    if metric == "qdelay_ms":
        return f"{v:.1f}"
    if metric == "loss_rate":
        return f"{v * 100:.2f} %"
    return f"{v:.3f}"


def fmt_diff(metric, d):
    if isinstance(d, float) and math.isnan(d):
        return "–"
    if metric == "qdelay_ms":
        return f"{d:+.1f}"
    if metric == "loss_rate":
        return f"{d * 100:+.2f} pp"
    return f"{d:+.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seeds", default=",".join(map(str, SEEDS)))
    ap.add_argument("--only", default="", help="run only scenarios whose id matches this regex")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--python", default=os.path.join(HERE, ".venv", "bin", "python"))
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument(
        "--ns3-diagnostic",
        default="",
        help="a diagnostic, never the cross-check itself (comma-separated):\n"
        "  prr       ns-3 3.44's PRR as ns-3 corrected it later (ns3_dumbbell.cc, XcPrrRecovery)\n"
        "  exit-ack  Reno grows by Linux's count on the ACK ending recovery (XcLinuxReno)",
    )
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    t_start = time.time()

    scs = [s for s in scenarios() if re.search(args.only, s["id"])]
    if not scs:
        sys.exit(f"no scenario matches {args.only!r}")
    binary = find_sawtooth()
    runs = os.path.join(args.out, "runs")
    if os.path.isdir(runs):
        shutil.rmtree(runs)
    os.makedirs(runs)

    jobs = []
    for sc in scs:
        for seed in seeds:
            jobs.append(
                ns3_job(sc, seed, os.path.join(runs, sc["id"], f"ns3-s{seed}"), args.ns3_diagnostic)
            )
    tmp = tempfile.mkdtemp(prefix="xc-ns3-")
    procs = start_ns3_workers(args.python, jobs, args.jobs, tmp)

    # Sawtooth runs take milliseconds each: run them while ns-3 works.
    t_saw = time.time()
    for sc in scs:
        for seed in seeds:
            for profile, tag in [(PROFILE, "sawtooth"), (ALT_PROFILE, "alt")]:
                run_sawtooth(binary, sc, seed, profile, os.path.join(runs, sc["id"], f"{tag}-s{seed}"))
    t_saw = time.time() - t_saw
    failed = False
    for p, log in procs:
        failed |= p.wait() != 0
        log.close()
    for name in sorted(os.listdir(tmp)):
        sys.stderr.write(open(os.path.join(tmp, name, "log.txt")).read())
    shutil.rmtree(tmp)
    if failed:
        sys.exit("an ns-3 worker failed (its log is above)")

    results = []
    for sc in scs:
        per = {"sawtooth": [], "alt": [], "ns3": []}
        for seed in seeds:
            for tag in per:
                d = os.path.join(runs, sc["id"], f"{tag}-s{seed}")
                m = read_run(d, sc["flows"], WARMUP_S, DURATION_S)
                m["retransmission_rate"] = retransmission_rate(
                    d, "ns3" if tag == "ns3" else "sawtooth"
                )
                per[tag].append(m)
        agg = {}
        for tag, ms in per.items():
            a = {k: mean([m[k] for m in ms]) for k in ms[0] if k != "flow_share"}
            a["loss_rate"] = a["mark_rate"] if sc["ecn"] else a["drop_rate"]
            a["timeouts"] = sum(m["timeouts"] for m in ms)
            if sc["flows"] == 1:
                a["jain"] = float("nan")
            agg[tag] = a
        rows = []
        for metric in ["utilisation", "qdelay_ms", "loss_rate", "jain"]:
            if metric == "jain" and sc["flows"] == 1:
                continue
            saw, ns3 = agg["sawtooth"][metric], agg["ns3"][metric]
            diff, tol, ok = judge(metric, saw, ns3)
            if ok:
                verdict = "pass"
            elif (sc["id"], metric) in EXPLAINED:
                verdict = "explained: " + EXPLAINED[(sc["id"], metric)]
            else:
                verdict = "OUTSIDE (unexplained)"
            rows.append(
                dict(
                    metric=metric,
                    sawtooth=saw,
                    ns3=ns3,
                    alt=agg["alt"][metric],
                    diff=diff,
                    tolerance=tol,
                    within=ok,
                    verdict=verdict,
                )
            )
        results.append(dict(scenario=sc, per_seed=per, mean=agg, rows=rows))

    wall = time.time() - t_start
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(
            dict(seeds=seeds, wall_s=wall, sawtooth_s=t_saw, results=results),
            f,
            indent=1,
            default=lambda x: None,
        )
    md = render(results, seeds, wall)
    if args.ns3_diagnostic:
        md = (
            f"**Diagnostic run: ns-3 with `--ns3-diagnostic {args.ns3_diagnostic}`, not the "
            "cross-check's configuration.**\n\n" + md
        )
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(md)
    print(md)
    outside = [
        (r["scenario"]["id"], row["metric"])
        for r in results
        for row in r["rows"]
        if not row["within"]
    ]
    unexplained = [o for o in outside if o not in EXPLAINED]
    print(
        f"{sum(len(r['rows']) for r in results)} comparisons, {len(outside)} outside tolerance, "
        f"{len(unexplained)} of them unexplained; wall time {wall:.0f} s "
        f"(Sawtooth {t_saw:.1f} s)"
    )
    if unexplained and not args.ns3_diagnostic:
        sys.exit(1)


def render(results, seeds, wall):
    out = []
    out.append(
        f"Means over seeds {', '.join(map(str, seeds))}; metrics over "
        f"{WARMUP_S:g}–{DURATION_S:g} s. Sawtooth profile `{PROFILE}`; the "
        f"`{ALT_PROFILE}` column is Sawtooth with that profile, for sensitivity.\n"
    )
    out.append(
        "| scenario | metric | Sawtooth | ns-3 | difference | tolerance | verdict | "
        f"`{ALT_PROFILE}` |"
    )
    out.append("|---|---|---|---|---|---|---|---|")
    for r in results:
        sc = r["scenario"]
        for row in r["rows"]:
            m = row["metric"]
            name = "drop rate" if m == "loss_rate" and not sc["ecn"] else (
                "mark rate" if m == "loss_rate" else METRIC_NAMES[m]
            )
            out.append(
                f"| {sc['id']} | {name} | {fmt(m, row['sawtooth'])} | {fmt(m, row['ns3'])} | "
                f"{fmt_diff(m, row['diff'])} | {row['tolerance']} | {row['verdict']} | "
                f"{fmt(m, row['alt'])} |"
            )
    out.append("")
    out.append("Retransmission rate and timeouts (not judged; timeouts summed over seeds):\n")
    out.append("| scenario | retransmitted, Sawtooth | ns-3 | timeouts, Sawtooth | ns-3 |")
    out.append("|---|---|---|---|---|")
    for r in results:
        a = r["mean"]
        out.append(
            f"| {r['scenario']['id']} | {a['sawtooth']['retransmission_rate'] * 100:.2f} % | "
            f"{a['ns3']['retransmission_rate'] * 100:.2f} % | {a['sawtooth']['timeouts']} | "
            f"{a['ns3']['timeouts']} |"
        )
    out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    main()
