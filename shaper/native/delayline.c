/*
 * delayline: the userspace delay line of the PCP shaper.
 *
 * Opens one TUN device inside each of two network namespaces (the client's and the server's) and
 * forwards every IP packet read from one device to the other after a fixed one-way delay, dropping
 * each packet independently with a given probability (Bernoulli, seeded, one stream per direction).
 * The rate is not applied here: the kernel's tbf qdisc on each TUN device's egress does that, before
 * the packet reaches this program. Because the delay is constant, packets leave in arrival order, so
 * each direction is a FIFO ring (the heap of a general delay line degenerates to a queue).
 *
 * Protocol with the parent: prints "ready rt=<0|1>\n" once both devices exist; prints a stats line
 * ("stats {json}") on SIGUSR1 and on exit; exits on SIGTERM/SIGINT, when stdin reaches EOF, and
 * (PR_SET_PDEATHSIG) when the parent dies.
 *
 * usage: delayline CLIENT_NETNS_PATH SERVER_NETNS_PATH DEVNAME DELAY_US LOSS SEED PARENT_PID
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define SLOT_BYTES 2048          /* > MTU 1500; larger packets are dropped and counted */
#define RING_SLOTS 8192          /* per direction: 100 Mbit/s x ~1 s of one-way delay */
#define LATE_BUCKETS 10000       /* release lateness histogram, 10 us buckets up to 100 ms, last = overflow */
#define LATE_BUCKET_NS 10000LL

struct slot { int64_t due_ns; uint32_t len; unsigned char data[SLOT_BYTES]; };

struct direction {
  const char *name;
  int in_fd, out_fd;
  struct slot *ring;
  uint32_t head, count;
  uint64_t rng;
  uint64_t packets_in, bytes_in, dropped_loss, dropped_full, dropped_big, write_errors, packets_out;
};

static volatile sig_atomic_t want_stats, want_exit;
static uint64_t late_hist[LATE_BUCKETS];
static uint64_t late_count;

static void on_signal(int sig) {
  if (sig == SIGUSR1) want_stats = 1;
  else want_exit = 1;
}

static void die(const char *what) {
  fprintf(stderr, "delayline: %s: %s\n", what, strerror(errno));
  exit(1);
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* splitmix64: small, well-distributed, reproducible from the seed. */
static uint64_t next_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static int open_tun_in(const char *netns_path, const char *dev) {
  int ns = open(netns_path, O_RDONLY | O_CLOEXEC);
  if (ns < 0) die(netns_path);
  if (setns(ns, CLONE_NEWNET) < 0) die("setns");
  close(ns);
  int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) die("/dev/net/tun");
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
  strncpy(ifr.ifr_name, dev, IFNAMSIZ - 1);
  if (ioctl(fd, TUNSETIFF, &ifr) < 0) die("TUNSETIFF");
  return fd;
}

static double late_quantile(double q) {
  if (late_count == 0) return 0;
  uint64_t rank = (uint64_t)(q * (double)(late_count - 1)), seen = 0;
  for (int i = 0; i < LATE_BUCKETS; i++) {
    seen += late_hist[i];
    if (seen > rank) return (double)(i + 1) * LATE_BUCKET_NS / 1e6; /* upper edge, ms */
  }
  return (double)LATE_BUCKETS * LATE_BUCKET_NS / 1e6;
}

static void print_dir(const struct direction *d) {
  printf("\"%s\":{\"packetsIn\":%llu,\"bytesIn\":%llu,\"packetsOut\":%llu,\"droppedLoss\":%llu,"
         "\"droppedQueueFull\":%llu,\"droppedTooBig\":%llu,\"writeErrors\":%llu}",
         d->name, (unsigned long long)d->packets_in, (unsigned long long)d->bytes_in,
         (unsigned long long)d->packets_out, (unsigned long long)d->dropped_loss,
         (unsigned long long)d->dropped_full, (unsigned long long)d->dropped_big,
         (unsigned long long)d->write_errors);
}

static void print_stats(const struct direction *a, const struct direction *b, int rt) {
  printf("stats {\"realtime\":%s,", rt ? "true" : "false");
  print_dir(a);
  putchar(',');
  print_dir(b);
  printf(",\"releaseLatenessMs\":{\"p50\":%.3f,\"p99\":%.3f,\"count\":%llu}}\n", late_quantile(0.5),
         late_quantile(0.99), (unsigned long long)late_count);
  fflush(stdout);
}

/* Reads every packet waiting on d->in_fd into the ring (or drops it). */
static void take_in(struct direction *d, int64_t delay_ns, uint64_t loss_threshold) {
  unsigned char buf[65536];
  for (int i = 0; i < 256; i++) {
    ssize_t n = read(d->in_fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) return;
      die("read");
    }
    if (n == 0) return;
    d->packets_in++;
    d->bytes_in += (uint64_t)n;
    if (loss_threshold && next_rand(&d->rng) < loss_threshold) { d->dropped_loss++; continue; }
    if (n > SLOT_BYTES) { d->dropped_big++; continue; }
    if (d->count == RING_SLOTS) { d->dropped_full++; continue; }
    struct slot *s = &d->ring[(d->head + d->count) % RING_SLOTS];
    s->due_ns = now_ns() + delay_ns;
    s->len = (uint32_t)n;
    memcpy(s->data, buf, (size_t)n);
    d->count++;
  }
}

/* Writes every packet that is due; returns the due time of the next one, or -1. */
static int64_t release_due(struct direction *d, int64_t now) {
  while (d->count) {
    struct slot *s = &d->ring[d->head];
    if (s->due_ns > now) return s->due_ns;
    int64_t late = now - s->due_ns;
    int bucket = (int)(late / LATE_BUCKET_NS);
    late_hist[bucket < LATE_BUCKETS ? bucket : LATE_BUCKETS - 1]++;
    late_count++;
    if (write(d->out_fd, s->data, s->len) < 0) d->write_errors++;
    else d->packets_out++;
    d->head = (d->head + 1) % RING_SLOTS;
    d->count--;
  }
  return -1;
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: delayline CLIENT_NETNS_PATH SERVER_NETNS_PATH DEVNAME DELAY_US LOSS SEED PARENT_PID\n");
    return 2;
  }
  /* Die with the parent; if it is already gone, the signal will never come. */
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0) die("prctl");
  if (getppid() != (pid_t)atol(argv[7])) return 1;
  prctl(PR_SET_TIMERSLACK, 1UL);

  const int64_t delay_ns = (int64_t)(atof(argv[4]) * 1000.0);
  const double loss = atof(argv[5]);
  if (delay_ns < 0 || !(loss >= 0 && loss <= 1)) { fprintf(stderr, "delayline: bad delay or loss\n"); return 2; }
  const uint64_t loss_threshold = loss >= 1 ? UINT64_MAX : (uint64_t)(loss * 18446744073709551616.0);
  const uint64_t seed = strtoull(argv[6], NULL, 10);

  struct direction c2s = { .name = "clientToServer", .rng = seed };
  struct direction s2c = { .name = "serverToClient", .rng = seed ^ 0x5bd1e9955bd1e995ULL };
  c2s.in_fd = open_tun_in(argv[1], argv[3]);
  s2c.in_fd = open_tun_in(argv[2], argv[3]);
  c2s.out_fd = s2c.in_fd;
  s2c.out_fd = c2s.in_fd;
  c2s.ring = calloc(RING_SLOTS, sizeof(struct slot));
  s2c.ring = calloc(RING_SLOTS, sizeof(struct slot));
  if (!c2s.ring || !s2c.ring) die("calloc");

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGUSR1, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  struct sched_param sp = { .sched_priority = 50 };
  const int rt = sched_setscheduler(0, SCHED_FIFO, &sp) == 0;
  printf("ready rt=%d\n", rt);
  fflush(stdout);

  struct pollfd fds[3] = {
    { .fd = c2s.in_fd, .events = POLLIN },
    { .fd = s2c.in_fd, .events = POLLIN },
    { .fd = STDIN_FILENO, .events = POLLIN },
  };
  int watch_stdin = 1;
  while (!want_exit) {
    if (want_stats) { want_stats = 0; print_stats(&c2s, &s2c, rt); }
    int64_t now = now_ns();
    int64_t a = release_due(&c2s, now), b = release_due(&s2c, now);
    int64_t next = a < 0 ? b : b < 0 ? a : (a < b ? a : b);
    struct timespec ts, *tsp = NULL;
    if (next >= 0) {
      int64_t wait = next - now_ns();
      if (wait < 0) wait = 0;
      ts.tv_sec = wait / 1000000000LL;
      ts.tv_nsec = wait % 1000000000LL;
      tsp = &ts;
    }
    int n = ppoll(fds, watch_stdin ? 3 : 2, tsp, NULL);
    if (n < 0) {
      if (errno == EINTR) continue;
      die("ppoll");
    }
    if (fds[0].revents & POLLIN) take_in(&c2s, delay_ns, loss_threshold);
    if (fds[1].revents & POLLIN) take_in(&s2c, delay_ns, loss_threshold);
    if ((fds[0].revents | fds[1].revents) & (POLLERR | POLLHUP | POLLNVAL)) break;
    if (watch_stdin && (fds[2].revents & (POLLIN | POLLHUP | POLLERR))) {
      char tmp[64];
      ssize_t r = read(STDIN_FILENO, tmp, sizeof tmp);
      if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) break; /* parent closed the pipe */
    }
  }
  print_stats(&c2s, &s2c, rt);
  return 0;
}
