// gpuwiz_nvml_wanted: argv is `gpuwiz gpu` on the real driver (see Wanted).
int gpuwiz_nvml_wanted(int argc, char **argv);
// gpuwiz_nvml_early_wait waits for the constructor's load, once: 1 and when it began (ns since the
// epoch), or 0 when none was started.
int gpuwiz_nvml_early_wait(long long *began_ns);
