// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c: option parsing of the ip plugin, with the kernel's ranges
 * (kernel/master.c policies, ../plugin-common/stripe_plugin.h) so a value
 * the kernel would refuse fails here, with the option's name and range.
 */
#include <string.h>
#include <linux/stripe.h>

#include "parse.h"

const struct stripe_opt stripe_ip_master_opts[] = {
	STRIPE_MASTER_OPTS(IFLA),
};
const size_t stripe_ip_master_nopts = STRIPE_ARRAY_SIZE(stripe_ip_master_opts);

const struct stripe_opt stripe_ip_slave_opts[] = {
	/* weight auto is sent as 0: IFLA_STRIPE_LINK_WEIGHT's "from the speed" */
	STRIPE_LINK_OPTS(IFLA_STRIPE_LINK_WEIGHT, IFLA_STRIPE_LINK_LIMIT),
};
const size_t stripe_ip_slave_nopts = STRIPE_ARRAY_SIZE(stripe_ip_slave_opts);

int stripe_ip_parse(const struct stripe_opt *opts, size_t nopts,
		    int argc, char **argv, struct stripe_ip_attr *out,
		    size_t max, FILE *err)
{
	struct stripe_seen seen = { 0 };
	char why[192];
	size_t n = 0;

	for (; argc > 0; argc -= 2, argv += 2) {
		const struct stripe_opt *o;

		o = stripe_find_opt(opts, nopts, argv[0]);
		if (!o) {
			fprintf(err, "stripe: unknown option \"%s\"\n", argv[0]);
			return -1;
		}
		if (argc < 2) {
			fprintf(err, "stripe: option \"%s\" needs a value\n",
				argv[0]);
			return -1;
		}
		if (n == max) {
			fprintf(err, "stripe: too many options\n");
			return -1;
		}
		if (o->arg == STRIPE_ARG_ADDR) {
			struct stripe_addr_val v;
			unsigned int i;

			if (stripe_parse_addr(o, argv[1], &v, why,
					      sizeof(why))) {
				fprintf(err, "stripe: invalid %s \"%s\": %s\n",
					o->name, argv[1], why);
				return -1;
			}
			for (i = 0; i < v.n; i++) {
				if (stripe_seen_attr(&seen, o, v.a[i].attr,
						     argv[1], why, sizeof(why))) {
					fprintf(err, "stripe: %s\n", why);
					return -1;
				}
			}
			for (i = 0; i < v.n; i++) {
				if (n == max) {
					fprintf(err, "stripe: too many options\n");
					return -1;
				}
				out[n].attr = v.a[i].attr;
				out[n].width = v.a[i].len;
				memcpy(&out[n].val, v.a[i].data, 4);
				memcpy(out[n].data, v.a[i].data, v.a[i].len);
				n++;
			}
			continue;
		}
		/* built without ip too (test_parse), so no sprint_time(): a
		 * time range reads "1..1000000 us"
		 */
		if (stripe_parse_value(o, argv[1], &out[n].val, why,
				       sizeof(why), NULL)) {
			fprintf(err, "stripe: invalid %s \"%s\": %s\n",
				o->name, argv[1], why);
			return -1;
		}
		if (stripe_seen_attr(&seen, o, o->attr, argv[1], why,
				     sizeof(why))) {
			fprintf(err, "stripe: %s\n", why);
			return -1;
		}
		out[n].attr = o->attr;
		out[n].width = o->arg == STRIPE_ARG_ONOFF ? 1 : 4;
		n++;
	}
	return (int)n;
}
