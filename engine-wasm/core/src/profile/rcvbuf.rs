//! Receive-buffer accounting: the window a receiver advertises for a
//! socket-buffer setting, as Linux 2.4 computed it (the profile's
//! `rmem_max_bytes` switch).

use super::Mechanisms;

/// Linux's `tcp_adv_win_scale` default (2 in 2.4 and 2.6.22): a socket
/// offers 1 − 1/4 of its receive buffer as window (`tcp_win_from_space`).
const ADV_WIN_NUM: u64 = 3;
const ADV_WIN_DEN: u64 = 4;
/// `sizeof(struct sk_buff)` on 32-bit 2.4 kernels, roughly; it only
/// decides whether ¾·truesize exceeds the segment, which it does by a wide
/// margin for every e1000 buffer size at the MTUs that use it.
const SK_BUFF_BYTES: u64 = 160;

/// The e1000 driver's receive buffer for an MTU (`e1000_change_mtu`: 2048,
/// 4096, 8192 or 16384 bytes for the frame, MTU + 18 header and FCS bytes).
pub fn e1000_rx_buffer_bytes(mtu_bytes: u32) -> u64 {
    let frame = mtu_bytes as u64 + 18;
    [2048, 4096, 8192]
        .into_iter()
        .find(|&b| frame <= b)
        .unwrap_or(16384)
}

/// The largest window the receiver advertises for a socket-buffer setting
/// `window_bytes`, under the profile's receive-buffer accounting.
///
/// Linux 2.4 (`net/core/sock.c`, `net/ipv4/tcp_input.c`): SO_RCVBUF is
/// capped at rmem_max and doubled; the window offered from a buffer is ¾ of
/// it (`tcp_win_from_space`, adv_win_scale 2); and `__tcp_grow_window`
/// raises `rcv_ssthresh` past half of that (`tcp_full_space/2`) only for
/// segments whose ¾·truesize fits in their length — never true for the
/// e1000's receive buffers — so the advertised window stalls at
/// ½·¾·2·min(window, rmem_max).
pub fn advertised_window_bytes(
    window_bytes: u32,
    mss_bytes: u32,
    mtu_bytes: u32,
    m: &Mechanisms,
) -> u64 {
    if m.rmem_max_bytes == 0 {
        return window_bytes as u64;
    }
    let rcvbuf = 2 * (window_bytes.min(m.rmem_max_bytes) as u64);
    let full_space = rcvbuf * ADV_WIN_NUM / ADV_WIN_DEN;
    let truesize = e1000_rx_buffer_bytes(mtu_bytes) + 2 + SK_BUFF_BYTES;
    let stalls = truesize * ADV_WIN_NUM / ADV_WIN_DEN > mss_bytes as u64;
    if stalls {
        full_space / 2
    } else {
        full_space
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::SAWTOOTH_1;

    #[test]
    fn linux_2_4_receive_buffer_accounting() {
        let m = Mechanisms {
            rmem_max_bytes: 8_388_608,
            ..SAWTOOTH_1
        };
        assert_eq!(e1000_rx_buffer_bytes(1500), 2048);
        assert_eq!(e1000_rx_buffer_bytes(9000), 16384);
        // Below rmem_max: ½·¾·2·w = ¾ of the setting, at both MTUs.
        assert_eq!(advertised_window_bytes(4 << 20, 8948, 9000, &m), 3 << 20);
        assert_eq!(advertised_window_bytes(4 << 20, 1448, 1500, &m), 3 << 20);
        // A 16 MB request is capped at rmem_max (Long 2003's 8 MB): 6 MB.
        assert_eq!(advertised_window_bytes(16 << 20, 8948, 9000, &m), 6 << 20);
        // Without accounting the setting is the window.
        assert_eq!(
            advertised_window_bytes(16 << 20, 8948, 9000, &SAWTOOTH_1),
            16 << 20
        );
    }
}
