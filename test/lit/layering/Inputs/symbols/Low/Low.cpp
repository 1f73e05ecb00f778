// The lower layer calls the higher one through a declaration written out by
// hand: no #include for the include check to see.
int high();
int low() { return high() + 1; }
