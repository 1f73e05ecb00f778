// The higher layer may call the lower one.
int low();
int high() { return 2; }
int twice() { return 2 * low(); }
