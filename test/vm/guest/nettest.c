// SPDX-License-Identifier: GPL-2.0-only
/*
 * nettest: the network side of the consumers boot of the VM suite
 * (test/vm/sets/consumers).
 *
 *   nettest cap IFACE       print every IPv4 ESP packet seen on IFACE, both
 *                           directions, as "ESP <hex of the IP packet>",
 *                           until SIGTERM, and those still queued then;
 *                           then "nettest: N dropped" (by the socket:
 *                           packets the dump lacks) on stderr
 *   nettest recv PORT FILE  accept one TCP connection, write what it
 *                           carries to FILE
 *   nettest send ADDR PORT FILE   send FILE over TCP to ADDR:PORT
 *   nettest delrng          drop the crypto API's default rng
 *                           (CRYPTO_MSG_DELRNG), so that the next user
 *                           allocates the highest-priority stdrng again
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/cryptouser.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int fail(const char *what)
{
	fprintf(stderr, "nettest: %s: %s\n", what, strerror(errno));
	return 1;
}

static int cap(const char *ifname)
{
	static unsigned char frame[65536 + ETH_HLEN];
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
	};
	struct tpacket_stats st;
	socklen_t len = sizeof(st);
	struct sigaction sa;
	int fd, rcvbuf = 64 << 20;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sll.sll_ifindex = if_nametoindex(ifname);
	if (!sll.sll_ifindex)
		return fail(ifname);
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0)
		return fail("AF_PACKET socket");
	/* room for every packet while the dump catches up */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
		return fail("SO_RCVBUFFORCE");
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		return fail("bind");
	fprintf(stderr, "nettest: capturing on %s\n", ifname);
	for (;;) {
		/* once told to stop, what is queued, without waiting */
		ssize_t n = recv(fd, frame, sizeof(frame), stop ? MSG_DONTWAIT : 0);
		const unsigned char *ip = frame + ETH_HLEN;
		ssize_t i;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (stop && (errno == EAGAIN || errno == EWOULDBLOCK))
				break;
			return fail("recv");
		}
		/* IPv4 (ethertype 0x0800), protocol 50 */
		if (n < ETH_HLEN + 20 || frame[12] != 0x08 || frame[13] != 0 ||
		    (ip[0] >> 4) != 4 || ip[9] != IPPROTO_ESP)
			continue;
		printf("ESP ");
		for (i = 0; i < n - ETH_HLEN; i++)
			printf("%02x", ip[i]);
		printf("\n");
		fflush(stdout);
	}
	if (getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) < 0)
		return fail("PACKET_STATISTICS");
	fprintf(stderr, "nettest: %u dropped\n", st.tp_drops);
	return 0;
}

static int recv_file(const char *port, const char *path)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(atoi(port)),
	};
	char buf[65536];
	int one = 1, l, c, out;
	ssize_t n;

	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0)
		return fail("socket");
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(l, 1) < 0)
		return fail("bind/listen");
	fprintf(stderr, "nettest: listening on %s\n", port);
	c = accept(l, NULL, NULL);
	if (c < 0)
		return fail("accept");
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		return fail(path);
	while ((n = read(c, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			return fail(path);
	if (n < 0)
		return fail("read");
	close(out);
	close(c);
	close(l);
	return 0;
}

static int send_file(const char *addr, const char *port, const char *path)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(atoi(port)),
	};
	char buf[65536];
	int s, in;
	ssize_t n;

	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1) {
		fprintf(stderr, "nettest: %s: not an IPv4 address\n", addr);
		return 1;
	}
	in = open(path, O_RDONLY);
	if (in < 0)
		return fail(path);
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)) < 0)
		return fail("connect");
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(s, buf, n) != n)
			return fail("write");
	if (n < 0)
		return fail(path);
	shutdown(s, SHUT_WR);
	/* the peer closes once it has read everything */
	while ((n = read(s, buf, sizeof(buf))) > 0)
		;
	close(s);
	close(in);
	return 0;
}

static int delrng(void)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	struct {
		struct nlmsghdr h;
		struct crypto_user_alg alg;
	} req;
	union {
		struct nlmsghdr h;
		char bytes[4096];
	} ack;
	struct nlmsgerr *e;
	int fd;

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = sizeof(req);
	req.h.nlmsg_type = CRYPTO_MSG_DELRNG;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_CRYPTO);
	if (fd < 0)
		return fail("NETLINK_CRYPTO socket");
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&nl,
		   sizeof(nl)) < 0)
		return fail("CRYPTO_MSG_DELRNG");
	if (recv(fd, &ack, sizeof(ack), 0) < (ssize_t)NLMSG_LENGTH(sizeof(*e)) ||
	    ack.h.nlmsg_type != NLMSG_ERROR)
		return fail("no netlink ack");
	e = NLMSG_DATA(&ack.h);
	if (e->error) {
		errno = -e->error;
		return fail("CRYPTO_MSG_DELRNG");
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "cap"))
		return cap(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "recv"))
		return recv_file(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "send"))
		return send_file(argv[2], argv[3], argv[4]);
	if (argc == 2 && !strcmp(argv[1], "delrng"))
		return delrng();
	fprintf(stderr, "usage: nettest cap IFACE | recv PORT FILE | send ADDR PORT FILE | delrng\n");
	return 2;
}
