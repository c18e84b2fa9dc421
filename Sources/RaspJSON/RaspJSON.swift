// RaspJSON: written next.
