// Cold start, Node alone: a process that loads this empty module and exits. Every cold start pays
// this twice (client and agent); the scenario reports it so that its ratios can be read apart from
// what starting Node costs on the machine (NODE_EXTRA_CA_CERTS, for one, adds its CA file to every start).
