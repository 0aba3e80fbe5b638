"""The games built in, a module each (a package for chess); `zerosum.registry` lists them."""
