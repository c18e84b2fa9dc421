// The module is its header, RaspPrefetch.h; a C target needs a source file besides.
#include "RaspPrefetch.h"
