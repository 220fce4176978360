// Short definitions shown as tips next to the terms students meet on the page.

export const GLOSSARY = {
  cwnd: {
    term: 'cwnd',
    text: 'Congestion window: how many packets the sender lets be unacknowledged at once. The congestion-control algorithm grows it while things go well and cuts it on congestion; the sender uses min(cwnd, advertised window).',
  },
  ssthresh: {
    term: 'ssthresh',
    text: 'Slow-start threshold: below it cwnd doubles every round trip (slow start), above it the algorithm’s slower congestion-avoidance rule applies. A congestion event sets it to the algorithm’s decrease. “Infinite” until the first loss unless set.',
  },
  bdp: {
    term: 'BDP',
    text: 'Bandwidth-delay product: rate × round-trip time, the data that fills the path. A window below it cannot use the link; data beyond it waits in a queue.',
  },
  txqueuelen: {
    term: 'txqueuelen',
    text: 'The sending host’s interface queue, in packets (ifconfig txqueuelen; 100 in Linux 2.4). When TCP finds it full, Linux does not drop the packet but enters CWR and backs off: a “local congestion” event that is not a network loss.',
  },
  outstanding: {
    term: 'outstanding data',
    text: 'Bytes sent but not yet acknowledged (in flight), as tcptrace plots it: the instantaneous value, its average over ACKs, a time-weighted average, and the receiver’s advertised window as the ceiling.',
  },
  window: {
    term: 'window',
    text: 'The socket buffer size, which the receiver advertises as its window: the most data the sender may have outstanding whatever cwnd says.',
  },
  rtt: {
    term: 'RTT',
    text: 'Round-trip time: here the two-way propagation delay, split evenly between the data and the ACK direction; queueing adds to it.',
  },
  jain: {
    term: 'Jain’s index',
    text: 'Fairness J = (Σx)² / (N·Σx²) over the flows’ mean throughputs: 1 when all get the same, 1/N when one takes everything.',
  },
  cwr: {
    term: 'CWR',
    text: 'Congestion Window Reduced: the Linux sender state entered when its own interface queue is full (or an ECN mark arrives). No packet is lost or retransmitted, but cwnd is cut step by step, one packet for every two ACKs, down to half, as if the network had dropped a packet.',
  },
  tcptrace: {
    term: 'tcptrace',
    text: 'A tool that reads a packet capture and plots a connection: the papers used its “outstanding data” graph (bytes sent but not yet acknowledged, over time). The chart of that name here draws the same quantity from the simulation.',
  },
  recovery: {
    term: 'recovery',
    text: 'Fast recovery: after three duplicate ACKs (or SACKs) report a loss, the sender retransmits and cuts cwnd to the algorithm’s decrease. Several losses in one window, or a CWR before it, can cut cwnd far more than the algorithm’s b alone.',
  },
  local_congestion: {
    term: 'local congestion',
    text: 'The sender’s own interface queue was full (txqueuelen): the packet waits, nothing is retransmitted, but the sender enters CWR and reduces cwnd as if congested.',
  },
} as const;

export type GlossaryId = keyof typeof GLOSSARY;
