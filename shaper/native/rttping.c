/*
 * rttping: ICMP echo round-trip times with the kernel's receive timestamps, for the shaper check.
 *
 * The reply's arrival time is taken by the kernel (SO_TIMESTAMPNS) and the request's just before
 * sendto(), which hands the packet to the stack synchronously; so a loaded machine delaying this
 * process's wake-up does not inflate the figures (a Node TCP ping measured the scheduler instead).
 * Runs at real-time priority when allowed. Prints one line per echo: "rtt MS" or "lost SEQ".
 *
 * usage: rttping DEST_IPV4 COUNT GAP_MS TIMEOUT_MS
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

static double ts_ms(const struct timespec *t) { return (double)t->tv_sec * 1e3 + (double)t->tv_nsec / 1e6; }

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return ts_ms(&t);
}

static uint16_t checksum(const void *data, size_t len) {
  const uint8_t *p = data;
  uint32_t sum = 0;
  for (size_t i = 0; i + 1 < len; i += 2) sum += (uint32_t)(p[i] << 8 | p[i + 1]);
  if (len & 1) sum += (uint32_t)(p[len - 1] << 8);
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return htons((uint16_t)~sum);
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: rttping DEST_IPV4 COUNT GAP_MS TIMEOUT_MS\n");
    return 2;
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  struct sockaddr_in dst = { .sin_family = AF_INET };
  if (inet_pton(AF_INET, argv[1], &dst.sin_addr) != 1) { fprintf(stderr, "rttping: bad address %s\n", argv[1]); return 2; }
  const int count = atoi(argv[2]);
  const double gap_ms = atof(argv[3]), timeout_ms = atof(argv[4]);
  int fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
  if (fd < 0) { fprintf(stderr, "rttping: raw socket: %s\n", strerror(errno)); return 1; }
  int on = 1;
  if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) < 0) { fprintf(stderr, "rttping: SO_TIMESTAMPNS: %s\n", strerror(errno)); return 1; }
  struct sched_param sp = { .sched_priority = 40 };
  sched_setscheduler(0, SCHED_FIFO, &sp);
  const uint16_t ident = (uint16_t)getpid();

  for (int seq = 0; seq < count; seq++) {
    unsigned char req[64];
    memset(req, 0, sizeof req);
    struct icmphdr *h = (struct icmphdr *)req;
    h->type = ICMP_ECHO;
    h->un.echo.id = htons(ident);
    h->un.echo.sequence = htons((uint16_t)seq);
    h->checksum = checksum(req, sizeof req);
    const double sent = now_ms();
    if (sendto(fd, req, sizeof req, 0, (struct sockaddr *)&dst, sizeof dst) < 0) { fprintf(stderr, "rttping: sendto: %s\n", strerror(errno)); return 1; }
    int got = 0;
    while (!got) {
      double left = sent + timeout_ms - now_ms();
      if (left <= 0) break;
      struct pollfd pfd = { .fd = fd, .events = POLLIN };
      if (poll(&pfd, 1, (int)left + 1) <= 0) continue;
      unsigned char buf[1500], ctl[512];
      struct iovec iov = { .iov_base = buf, .iov_len = sizeof buf };
      struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl };
      ssize_t n = recvmsg(fd, &msg, 0);
      if (n < (ssize_t)sizeof(struct iphdr)) continue;
      const struct iphdr *ip = (const struct iphdr *)buf;
      size_t off = (size_t)ip->ihl * 4;
      if ((size_t)n < off + sizeof(struct icmphdr)) continue;
      const struct icmphdr *r = (const struct icmphdr *)(buf + off);
      if (r->type != ICMP_ECHOREPLY || ntohs(r->un.echo.id) != ident || ntohs(r->un.echo.sequence) != seq) continue;
      double arrived = now_ms();
      for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
          struct timespec t;
          memcpy(&t, CMSG_DATA(c), sizeof t);
          arrived = ts_ms(&t);
        }
      }
      printf("rtt %.3f\n", arrived - sent);
      got = 1;
    }
    if (!got) printf("lost %d\n", seq);
    fflush(stdout);
    const double next = sent + gap_ms;
    while (now_ms() < next) {
      double d = next - now_ms();
      struct timespec ts = { .tv_sec = (time_t)(d / 1e3), .tv_nsec = (long)((d - (double)(time_t)(d / 1e3) * 1e3) * 1e6) };
      nanosleep(&ts, NULL);
    }
  }
  return 0;
}
