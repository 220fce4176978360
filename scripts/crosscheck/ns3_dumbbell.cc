// The ns-3 side of the Sawtooth cross-check: one dumbbell scenario, built
// and run inside the ns-3 Python bindings (cppyy JIT-compiles this file;
// ns3_run.py loads it). It writes the same three files as `sawtooth run
// --out`: series.csv (per-flow in-order throughput and the bottleneck's
// queueing delay, sampled as Sawtooth samples them), events.csv (drops,
// marks, fast retransmits, timeouts) and summary.json (counters), so that
// one analysis (crosscheck.py) reads both simulators the same way.
//
// Topology: N sender nodes --(NIC rate, no delay)--> R1 ==(bottleneck
// rate, RTT/2 each way)==> R2 --(NIC rate, no delay)--> N receivers.
// The queue discipline is the root queue disc of R1's bottleneck device;
// that device's own queue holds one packet (the smallest ns-3 allows).
//
// Every setting arrives as an argument (crosscheck.py's ns3_job says where
// each value comes from; docs/CROSSCHECK.md lists them beside Sawtooth's).

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace xc
{
using namespace ns3;

struct FlowState
{
    uint64_t lastRx = 0;
    uint64_t segsSent = 0;     // data segments handed to IP (first sends and retransmissions)
    uint64_t retransmits = 0;  // data segments at or below the highest sequence already sent
    uint64_t drops = 0;
    uint64_t marks = 0;
    uint64_t fastRetransmits = 0;
    uint64_t timeouts = 0;
    uint32_t cwndBytes = 0;
    uint32_t ssthreshBytes = 0;
    SequenceNumber32 highTx{0};
    bool started = false;
};

struct State
{
    std::vector<FlowState> flows;
    std::vector<Ptr<PacketSink>> sinks;
    std::map<uint32_t, uint32_t> flowOfAddress; // sender IPv4 address -> flow index
    std::map<uint64_t, int64_t> enqueuedNs;      // packet uid -> time it joined the queue disc
    std::ostringstream series;
    std::ostringstream events;
    uint64_t lastSojournNs = 0;
    bool dequeuedSinceSample = false;
    bool onWire = false;
    double sampleS = 0.01;
    double mssBytes = 1448;
    Ptr<QueueDisc> qdisc;
    Ptr<Queue<Packet>> deviceQueue;
    uint64_t drops = 0;
    uint64_t marks = 0;
    uint64_t departed = 0; // data packets that started crossing the bottleneck
};

static State* g = nullptr;

/// A diagnostic only (crosscheck.py --ns3-diagnostic exit-ack), never in the
/// cross-check's table: ns-3 3.44's TcpLinuxReno, except that the ACK which
/// ends fast recovery grows the window by what Linux counts on it. ns-3's
/// TcpSocketBase::ProcessAck sets cwnd = ssthresh on that ACK and then calls
/// IncreaseWindow with every segment the cumulative ACK covers, including
/// those already SACKed during recovery (about one window); Linux's
/// tcp_cong_control passes acked_sacked, the packets newly delivered by that
/// ACK, which is the retransmission that filled the hole: one segment here.
class XcLinuxReno : public TcpLinuxReno
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::XcLinuxReno")
                                .SetParent<TcpLinuxReno>()
                                .AddConstructor<XcLinuxReno>()
                                .SetGroupName("Internet");
        return tid;
    }

    XcLinuxReno() = default;
    XcLinuxReno(const XcLinuxReno& o)
        : TcpLinuxReno(o),
          m_justRecovered(o.m_justRecovered)
    {
    }

    std::string GetName() const override
    {
        return "XcLinuxReno";
    }

    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override
    {
        if (event == TcpSocketState::CA_EVENT_COMPLETE_CWR &&
            tcb->m_congState == TcpSocketState::CA_RECOVERY)
        {
            m_justRecovered = true;
        }
        TcpLinuxReno::CwndEvent(tcb, event);
    }

    void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override
    {
        if (m_justRecovered)
        {
            m_justRecovered = false;
            segmentsAcked = std::min<uint32_t>(segmentsAcked, 1);
        }
        TcpLinuxReno::IncreaseWindow(tcb, segmentsAcked);
    }

    Ptr<TcpCongestionOps> Fork() override
    {
        return CopyObject<XcLinuxReno>(this);
    }

  private:
    bool m_justRecovered{false};
};

/// A diagnostic only (crosscheck.py --ns3-diagnostic prr), never in
/// the cross-check's table: ns-3 3.44's TcpPrrRecovery with the two
/// corrections ns-3 made to it after 3.44: DeliveredData is not raised by
/// one segment per duplicate ACK on a SACK connection (RFC 6937 §3 counts
/// the SACKed bytes, which the caller already passes), and the PRR product
/// is computed in 64 bits (3.44 multiplies two uint32_t, which wraps once
/// prr_delivered * ssthresh passes 2^32 bytes^2, about 21 segments
/// delivered at a 100-segment ssthresh). Everything else is 3.44's code.
class XcPrrRecovery : public TcpClassicRecovery
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::XcPrrRecovery")
                                .SetParent<TcpClassicRecovery>()
                                .AddConstructor<XcPrrRecovery>()
                                .SetGroupName("Internet");
        return tid;
    }

    XcPrrRecovery() = default;
    XcPrrRecovery(const XcPrrRecovery& o)
        : TcpClassicRecovery(o),
          m_prrDelivered(o.m_prrDelivered),
          m_prrOut(o.m_prrOut),
          m_recoveryFlightSize(o.m_recoveryFlightSize)
    {
    }

    std::string GetName() const override
    {
        return "XcPrrRecovery";
    }

    void EnterRecovery(Ptr<TcpSocketState> tcb, uint32_t, uint32_t, uint32_t deliveredBytes) override
    {
        m_prrOut = 0;
        m_prrDelivered = 0;
        m_recoveryFlightSize = tcb->m_bytesInFlight;
        DoRecovery(tcb, deliveredBytes, true);
    }

    void DoRecovery(Ptr<TcpSocketState> tcb, uint32_t deliveredBytes, bool) override
    {
        if (deliveredBytes == 0)
        {
            return;
        }
        m_prrDelivered += deliveredBytes;
        int64_t sendCount;
        uint64_t ssThresh = tcb->m_ssThresh.Get();
        uint64_t inFlight = tcb->m_bytesInFlight.Get();
        if (inFlight > ssThresh)
        {
            uint64_t dividend = m_prrDelivered * ssThresh;
            uint64_t quotient =
                dividend / m_recoveryFlightSize + (dividend % m_recoveryFlightSize != 0);
            sendCount = int64_t(quotient) - int64_t(m_prrOut);
        }
        else
        {
            int64_t limit = std::max<int64_t>(int64_t(m_prrDelivered) - int64_t(m_prrOut),
                                              int64_t(deliveredBytes));
            if (tcb->m_isRetransDataAcked)
            {
                limit += tcb->m_segmentSize;
            }
            sendCount = std::min<int64_t>(limit, int64_t(ssThresh) - int64_t(inFlight));
        }
        sendCount = std::max<int64_t>(sendCount, m_prrOut > 0 ? 0 : tcb->m_segmentSize);
        tcb->m_cWnd = uint32_t(inFlight + sendCount);
        tcb->m_cWndInfl = tcb->m_cWnd;
    }

    void ExitRecovery(Ptr<TcpSocketState> tcb) override
    {
        tcb->m_cWndInfl = tcb->m_cWnd;
    }

    void UpdateBytesSent(uint32_t bytesSent) override
    {
        m_prrOut += bytesSent;
    }

    Ptr<TcpRecoveryOps> Fork() override
    {
        return CopyObject<XcPrrRecovery>(this);
    }

  private:
    uint64_t m_prrDelivered{0};
    uint64_t m_prrOut{0};
    uint64_t m_recoveryFlightSize{1};
};

static int
FlowOf(Ptr<const QueueDiscItem> item)
{
    Ptr<const Ipv4QueueDiscItem> ip = DynamicCast<const Ipv4QueueDiscItem>(item);
    if (!ip)
    {
        return -1;
    }
    auto it = g->flowOfAddress.find(ip->GetHeader().GetSource().Get());
    return it == g->flowOfAddress.end() ? -1 : int(it->second);
}

static void
Event(int flow, const char* kind)
{
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.9f,%d,%s\n", Simulator::Now().GetSeconds(), flow, kind);
    g->events << buf;
}

static void
OnDrop(Ptr<const QueueDiscItem> item)
{
    int f = FlowOf(item);
    g->drops++;
    if (f >= 0)
    {
        g->flows[f].drops++;
    }
    Event(f, "NetworkLoss");
}

static void
OnMark(Ptr<const QueueDiscItem> item, const char* /* reason */)
{
    int f = FlowOf(item);
    g->marks++;
    if (f >= 0)
    {
        g->flows[f].marks++;
    }
    Event(f, "EcnMark");
}

static void
OnQdiscDequeue(Ptr<const QueueDiscItem> item)
{
    g->enqueuedNs[item->GetPacket()->GetUid()] = item->GetTimeStamp().GetNanoSeconds();
}

// The bottleneck device starts sending a frame: its sojourn time is from
// joining the queue disc to now (queue disc plus the device's one-packet
// queue), the quantity Sawtooth records as q.bottleneck_delay_ms.
static void
OnPhyTxBegin(Ptr<const Packet> p)
{
    auto it = g->enqueuedNs.find(p->GetUid());
    if (it != g->enqueuedNs.end())
    {
        g->lastSojournNs = uint64_t(Simulator::Now().GetNanoSeconds() - it->second);
        g->enqueuedNs.erase(it);
        g->departed++;
    }
    g->dequeuedSinceSample = true;
    g->onWire = true;
}

static void
OnPhyTxEnd(Ptr<const Packet>)
{
    g->onWire = false;
}

static void
OnTx(uint32_t f, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (p->GetSize() == 0)
    {
        return;
    }
    FlowState& s = g->flows[f];
    s.segsSent++;
    SequenceNumber32 end = h.GetSequenceNumber() + p->GetSize();
    if (s.started && end <= s.highTx)
    {
        s.retransmits++;
    }
    if (!s.started || end > s.highTx)
    {
        s.highTx = end;
    }
    s.started = true;
}

static void
OnCongState(uint32_t f,
            const TcpSocketState::TcpCongState_t /* old */,
            const TcpSocketState::TcpCongState_t now)
{
    if (now == TcpSocketState::CA_RECOVERY)
    {
        g->flows[f].fastRetransmits++;
        Event(int(f), "FastRetransmit");
    }
    else if (now == TcpSocketState::CA_LOSS)
    {
        g->flows[f].timeouts++;
        Event(int(f), "Timeout");
    }
}

static void
OnCwnd(uint32_t f, uint32_t, uint32_t now)
{
    g->flows[f].cwndBytes = now;
}

static void
OnSsthresh(uint32_t f, uint32_t, uint32_t now)
{
    g->flows[f].ssthreshBytes = now;
}

static void
HookSocket(uint32_t f, Ptr<BulkSendApplication> app)
{
    Ptr<TcpSocketBase> s = DynamicCast<TcpSocketBase>(app->GetSocket());
    NS_ABORT_MSG_IF(!s, "bulk sender has no TCP socket");
    s->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTx, f));
    s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnCongState, f));
    s->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnCwnd, f));
    s->TraceConnectWithoutContext("SlowStartThreshold", MakeBoundCallback(&OnSsthresh, f));
}

static void
Sample()
{
    double t = Simulator::Now().GetSeconds();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6f", t);
    g->series << buf;
    for (size_t f = 0; f < g->flows.size(); ++f)
    {
        uint64_t rx = g->sinks[f]->GetTotalRx();
        double bps = double(rx - g->flows[f].lastRx) * 8.0 / g->sampleS;
        g->flows[f].lastRx = rx;
        std::snprintf(buf, sizeof buf, ",%.3f,%.3f,%.3f", bps,
                      double(g->flows[f].cwndBytes) / g->mssBytes,
                      double(g->flows[f].ssthreshBytes) / g->mssBytes);
        g->series << buf;
    }
    double delayMs = (g->dequeuedSinceSample || g->onWire) ? g->lastSojournNs / 1e6 : 0.0;
    g->dequeuedSinceSample = false;
    uint32_t occupancy =
        g->qdisc->GetNPackets() + g->deviceQueue->GetNPackets() + (g->onWire ? 1 : 0);
    std::snprintf(buf, sizeof buf, ",%u,%.6f\n", occupancy, delayMs);
    g->series << buf;
    Simulator::Schedule(Seconds(g->sampleS), &Sample);
}

/// Runs one scenario and writes series.csv, events.csv and summary.json
/// into outDir (which must exist). Returns "" or an error message.
std::string
RunDumbbell(std::string outDir,
            std::string aqm,       // drop_tail | codel | fq_codel | pie | step_mark
            std::string tcpTypeId, // e.g. ns3::TcpCubic
            uint32_t nFlows,
            double rateBps,
            double nicBps,
            double rttMs,
            uint32_t qdiscLimitPkts, // packets the queue disc holds (the device queue holds one more)
            uint32_t stepThresholdPkts,
            double durationS,
            double sampleMs,
            uint32_t seed,
            uint32_t mssBytes,
            uint32_t initialCwndPkts,
            double delAckTimeoutMs,
            double minRtoMs,
            uint32_t bufBytes,
            double ifgBytes, // per-frame framing beyond PPP's 2-byte header, in byte times
            std::string startMs, // each flow's start time in ms, comma-separated
            bool ecn,
            uint32_t pieMeanPktSize,
            std::string diagnostic) // "": ns-3 3.44 as shipped; else "prr" and/or "exit-ack" (comma-separated)
{
    std::vector<double> starts;
    {
        std::istringstream in(startMs);
        std::string item;
        while (std::getline(in, item, ','))
        {
            starts.push_back(std::stod(item));
        }
    }
    if (starts.size() != nFlows)
    {
        return "need one start time per flow";
    }
    State state;
    g = &state;
    state.sampleS = sampleMs / 1000.0;
    state.mssBytes = mssBytes;
    state.flows.resize(nFlows);

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);

    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mssBytes));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initialCwndPkts));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(delAckTimeoutMs)));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(bufBytes));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(bufBytes));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(minRtoMs)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(true));
    {
        std::istringstream in(diagnostic);
        std::string d;
        while (std::getline(in, d, ','))
        {
            if (d == "prr")
            {
                Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                                   TypeIdValue(XcPrrRecovery::GetTypeId()));
            }
            else if (d == "exit-ack")
            {
                if (tcpTypeId == "ns3::TcpLinuxReno")
                {
                    tcpTypeId = "ns3::XcLinuxReno";
                    XcLinuxReno::GetTypeId();
                }
            }
            else if (!d.empty())
            {
                return "unknown diagnostic " + d;
            }
        }
    }
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue(tcpTypeId));
    Config::SetDefault("ns3::TcpSocketBase::UseEcn",
                       StringValue(ecn ? "On" : "Off"));

    NodeContainer senders, receivers, routers;
    senders.Create(nFlows);
    receivers.Create(nFlows);
    routers.Create(2);

    auto gap = [&](double bps) { return Seconds(ifgBytes * 8.0 / bps); };

    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(nicBps))));
    access.SetDeviceAttribute("InterframeGap", TimeValue(gap(nicBps)));
    access.SetChannelAttribute("Delay", TimeValue(Seconds(0)));

    PointToPointHelper bottleneck;
    bottleneck.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(rateBps))));
    bottleneck.SetDeviceAttribute("InterframeGap", TimeValue(gap(rateBps)));
    bottleneck.SetChannelAttribute("Delay", TimeValue(MicroSeconds(int64_t(rttMs * 500.0))));
    bottleneck.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));

    InternetStackHelper stack;
    stack.Install(senders);
    stack.Install(receivers);
    stack.Install(routers);

    NetDeviceContainer core = bottleneck.Install(routers.Get(0), routers.Get(1));

    TrafficControlHelper tch;
    std::ostringstream limit;
    limit << qdiscLimitPkts << "p";
    if (aqm == "drop_tail")
    {
        tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue(limit.str()));
    }
    else if (aqm == "codel")
    {
        tch.SetRootQueueDisc("ns3::CoDelQueueDisc",
                             "MaxSize", StringValue(limit.str()),
                             "UseEcn", BooleanValue(false));
    }
    else if (aqm == "fq_codel")
    {
        tch.SetRootQueueDisc("ns3::FqCoDelQueueDisc",
                             "MaxSize", StringValue(limit.str()),
                             "UseEcn", BooleanValue(false));
    }
    else if (aqm == "pie")
    {
        // Sawtooth's PIE derandomises as Linux's sch_pie.c always does
        // (RFC 8033 §5.4; ns-3's UseDerandomization defaults to false).
        // What cannot be matched: ns-3 decays by 0.98 (Sawtooth, as Linux,
        // by 1/64) and runs its first update at once (the constructor
        // schedules it before attributes are set, so Supdate has no effect;
        // Linux and Sawtooth at 500 ms).
        tch.SetRootQueueDisc("ns3::PieQueueDisc",
                             "MaxSize", StringValue(limit.str()),
                             "MeanPktSize", UintegerValue(pieMeanPktSize),
                             "UseDerandomization", BooleanValue(true),
                             "UseEcn", BooleanValue(false));
    }
    else if (aqm == "step_mark")
    {
        // DCTCP's step marking (RFC 8257 §3.1) from ns-3's RED: the
        // instantaneous queue (QW = 1), MinTh = MaxTh = K, not gentle, so
        // every arrival finding K or more packets in the queue disc is
        // marked (RED's forced mark) and none below; drops only when full.
        tch.SetRootQueueDisc("ns3::RedQueueDisc",
                             "MaxSize", StringValue(limit.str()),
                             "UseEcn", BooleanValue(true),
                             "UseHardDrop", BooleanValue(false),
                             "Gentle", BooleanValue(false),
                             "QW", DoubleValue(1.0),
                             "MinTh", DoubleValue(stepThresholdPkts),
                             "MaxTh", DoubleValue(stepThresholdPkts),
                             "MeanPktSize", UintegerValue(mssBytes + 52),
                             "LinkBandwidth", DataRateValue(DataRate(uint64_t(rateBps))),
                             "LinkDelay", TimeValue(MicroSeconds(int64_t(rttMs * 500.0))));
    }
    else
    {
        return "unknown aqm " + aqm;
    }
    QueueDiscContainer qdiscs = tch.Install(core.Get(0));
    Ptr<QueueDisc> qd = qdiscs.Get(0);
    // PIE's random drops are its only random numbers here: give them a fixed
    // stream so that a run depends on its seed alone, not on what ran before
    // it in the same process (ns-3 numbers streams in creation order).
    if (Ptr<PieQueueDisc> pie = DynamicCast<PieQueueDisc>(qd))
    {
        pie->AssignStreams(1000);
    }

    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.0");
    addr.Assign(core);

    std::vector<Ipv4Address> receiverAddr;
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        NetDeviceContainer left = access.Install(senders.Get(i), routers.Get(0));
        std::ostringstream base;
        base << "10.1." << i << ".0";
        addr.SetBase(base.str().c_str(), "255.255.255.0");
        Ipv4InterfaceContainer li = addr.Assign(left);
        state.flowOfAddress[li.GetAddress(0).Get()] = i;

        NetDeviceContainer right = access.Install(routers.Get(1), receivers.Get(i));
        std::ostringstream base2;
        base2 << "10.2." << i << ".0";
        addr.SetBase(base2.str().c_str(), "255.255.255.0");
        Ipv4InterfaceContainer ri = addr.Assign(right);
        receiverAddr.push_back(ri.GetAddress(1));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    state.qdisc = qd;
    state.deviceQueue = DynamicCast<PointToPointNetDevice>(core.Get(0))->GetQueue();
    qd->TraceConnectWithoutContext("Drop", MakeCallback(&OnDrop));
    qd->TraceConnectWithoutContext("Mark", MakeCallback(&OnMark));
    qd->TraceConnectWithoutContext("Dequeue", MakeCallback(&OnQdiscDequeue));
    core.Get(0)->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&OnPhyTxBegin));
    core.Get(0)->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&OnPhyTxEnd));

    const uint16_t port = 5000;
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sinkApp = sinkHelper.Install(receivers.Get(i));
        sinkApp.Start(Seconds(0));
        state.sinks.push_back(DynamicCast<PacketSink>(sinkApp.Get(0)));

        BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(receiverAddr[i], port));
        src.SetAttribute("MaxBytes", UintegerValue(0));
        src.SetAttribute("SendSize", UintegerValue(mssBytes));
        ApplicationContainer srcApp = src.Install(senders.Get(i));
        Time start = Seconds(starts.at(i) / 1000.0);
        srcApp.Start(start);
        Ptr<BulkSendApplication> app = DynamicCast<BulkSendApplication>(srcApp.Get(0));
        Simulator::Schedule(start + NanoSeconds(1), &HookSocket, i, app);
    }

    state.series << "t_s";
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        state.series << ",f" << i << ".throughput_bps,f" << i << ".cwnd_pkts,f" << i
                     << ".ssthresh_pkts";
    }
    state.series << ",q.bottleneck_pkts,q.bottleneck_delay_ms\n";
    state.events << "t_s,flow,kind\n";
    Simulator::Schedule(Seconds(state.sampleS), &Sample);

    Simulator::Stop(Seconds(durationS) + NanoSeconds(1));
    Simulator::Run();

    QueueDisc::Stats st = qd->GetStats();
    std::ostringstream js;
    js << "{\n  \"duration_s\": " << durationS << ",\n  \"flows\": [\n";
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        const FlowState& s = state.flows[i];
        js << "    {\"flow\": " << i << ", \"rx_bytes\": " << state.sinks[i]->GetTotalRx()
           << ", \"segments_sent\": " << s.segsSent << ", \"retransmits\": " << s.retransmits
           << ", \"drops\": " << s.drops << ", \"ecn_marks\": " << s.marks
           << ", \"fast_retransmits\": " << s.fastRetransmits << ", \"timeouts\": " << s.timeouts
           << "}" << (i + 1 < nFlows ? "," : "") << "\n";
    }
    js << "  ],\n  \"bottleneck_drops\": " << state.drops << ",\n  \"ecn_marks\": " << state.marks
       << ",\n  \"qdisc_received\": " << st.nTotalReceivedPackets
       << ",\n  \"qdisc_dropped\": " << st.nTotalDroppedPackets
       << ",\n  \"qdisc_marked\": " << st.nTotalMarkedPackets
       << ",\n  \"departed\": " << state.departed << "\n}\n";

    Simulator::Destroy();
    g = nullptr;

    std::ofstream(outDir + "/series.csv") << state.series.str();
    std::ofstream(outDir + "/events.csv") << state.events.str();
    std::ofstream(outDir + "/summary.json") << js.str();
    return "";
}

} // namespace xc
