"""Loading compiled functions from numba's disk cache without work a load never uses.

A warm ``tetherdyn run`` loads 6-8 compiled functions from the cache (the time loop, a
formulation's diagnostics and checks, the boundary motion); numba 0.68 spends more on
that than on most runs' start otherwise (issue 22, benchmarks/results_whole_process.md):

1. ``Cache.load_overload`` first *refreshes* the target context: it imports ~40 numba
   modules of lowering implementations (numpy's linear algebra, random generators, typed
   containers, …), installs their registries and refreshes the typing context, ~0.3-0.4 s
   of CPU in the first load of a process. A load needs none of it: the machine code is
   already compiled; only the symbols it calls must be known to LLVM, and those are
   registered when the target context is created (numba's C helpers, libm) except the
   runtime's (NRT, registered by ``rtsys.initialize``) and two that modules register on
   import (the hash secret, the parallel backend). Here a load initialises the runtime
   only when the object code names it and refreshes as before when the code names one of
   the others; any compilation still refreshes first (``numba.core.compiler``).
2. The cached object code comes with the library's LLVM bitcode ("shared module", 0.2-0.6
   MB for a time loop), parsed at load only to list the library's defined symbols; the
   bitcode itself is used when *another* function is compiled against the library. Here
   the defined symbols are read from the object code's ELF symbol table (the same names:
   tests/test_numba_load.py) and the bitcode is parsed when a compilation first links
   against the library.
3. Every cached dispatcher created checks that its ``__pycache__`` folder is writable by
   creating a temporary file there (~170 per run); here once per folder and process.

Applied to numba 0.68 only (the internals replaced here are that version's; any other
version loads as numba does), to ELF64 little-endian object code (Linux; other object
formats load as numba does), and nowhere when ``TETHERDYN_NUMBA_LOAD=numba``.
"""

from __future__ import annotations

import os

import numba

__all__ = ["install", "elf_defined_symbols"]

#: symbols registered with LLVM on import of a module the context refresh imports
#: (numba.cpython.hashing, numba.np.ufunc.parallel): code naming them loads as numba does
_REFRESH_MARKERS = (b"_numba_hashsecret_", b"numba_parallel_for", b"do_scheduling",
                    b"get_num_threads", b"set_num_threads", b"get_thread_id",
                    b"allocate_sched", b"deallocate_sched", b"parallel_chunksize",
                    b"get_sched_size")
_SHT_SYMTAB = 2
_STT_SECTION, _STT_FILE = 3, 4

_installed = False


def elf_defined_symbols(obj: bytes) -> set[str] | None:
    """Names of the symbols an ELF64 little-endian object file defines (functions, data;
    not sections or files), or None for any other object format."""
    import struct

    if obj[:6] != b"\x7fELF\x02\x01":  # ELF, 64-bit, little-endian
        return None
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + k * shentsize)
                for k in range(shnum)]
    names: set[str] = set()
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != _SHT_SYMTAB:
            continue
        str_off, str_size = sections[link][4], sections[link][5]
        strtab = obj[str_off:str_off + str_size]
        for k in range(size // (entsize or 24)):
            name, info, _, shndx, _, _ = struct.unpack_from("<IBBHQQ", obj,
                                                            offset + k * (entsize or 24))
            if name and shndx != 0 and (info & 0xF) not in (_STT_SECTION, _STT_FILE):
                names.add(strtab[name:strtab.index(b"\0", name)].decode())
    return names


def install() -> bool:
    """Replace numba's cache loading as the module docstring says (once per process);
    whether it is in place."""
    global _installed
    if _installed:
        return True
    if os.environ.get("TETHERDYN_NUMBA_LOAD") == "numba":
        return False
    if not numba.__version__.startswith("0.68."):
        return False
    import llvmlite.binding as ll
    from numba.core import caching, codegen
    from numba.core.runtime import nrt

    library_class = codegen.JITCodeLibrary  # the CPU target's JIT libraries
    original_unserialize = codegen.CPUCodeLibrary.__dict__["_unserialize"].__func__
    original_linking = codegen.CPUCodeLibrary._get_module_for_linking
    original_ensure = caching._CacheLocator.ensure_cache_path
    writable: set[str] = set()

    def load_overload(self, sig, target_context):
        # numba 0.68's Cache.load_overload, less the context refresh (point 1)
        with self._guard_against_spurious_io_errors():
            if not self._enabled:
                return None
            data = self._cache_file.load(self._index_key(sig, target_context.codegen()))
            if data is None:
                return None
            name, kind, payload = data[0]  # the serialized library (CodeLibrary)
            code = payload[0] if kind == "object" else payload
            if kind != "object" or any(m in code for m in _REFRESH_MARKERS):
                target_context.refresh()
            elif b"nrt" in code.lower():  # NRT_* functions, nrt_unresolved_abort
                nrt.rtsys.initialize(target_context)
            return self._impl.rebuild(target_context, data)

    def _unserialize(cls, codegen_, state):
        # numba 0.68's CPUCodeLibrary._unserialize for object code, the bitcode left
        # unparsed (point 2)
        name, kind, data = state
        defined = elf_defined_symbols(data[0]) if kind == "object" else None
        if defined is None:
            return original_unserialize(cls, codegen_, state)
        self = codegen_.create_library(name)
        assert isinstance(self, cls)
        self.enable_object_caching()
        self._set_compiled_object(data[0])
        self._tetherdyn_bitcode = data[1]
        self._finalize_final_module()
        codegen_._engine._defined_symbols |= defined
        return self

    def _get_module_for_linking(self):
        bitcode = self.__dict__.pop("_tetherdyn_bitcode", None)
        if bitcode is not None:
            self._shared_module = ll.parse_bitcode(bitcode)
        return original_linking(self)

    def ensure_cache_path(self):
        path = self.get_cache_path()
        if path not in writable:  # point 3
            original_ensure(self)
            writable.add(path)

    caching.FunctionCache.load_overload = load_overload
    library_class._unserialize = classmethod(_unserialize)
    codegen.CPUCodeLibrary._get_module_for_linking = _get_module_for_linking
    caching._CacheLocator.ensure_cache_path = ensure_cache_path
    _installed = True
    return True
