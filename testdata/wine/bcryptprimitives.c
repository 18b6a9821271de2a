/* A stand-in bcryptprimitives.dll for running Go Windows binaries under Wine 8 (Debian 12's wine64),
 * which lacks that DLL: every Go >= 1.22 windows/amd64 program calls its ProcessPrng at start and
 * exits at once without it. This one implements ProcessPrng over RtlGenRandom (advapi32's
 * SystemFunction036). The tests build it (steps/winetest/wineprefix) and copy it into the Wine
 * prefix's system32; by hand:
 *   x86_64-w64-mingw32-gcc -shared -O2 -Wall -Werror -o bcryptprimitives.dll bcryptprimitives.c -Wl,--kill-at
 * Real Windows 10 and 11 have the real DLL: this is for Wine only, and never shipped. */
#include <windows.h>

typedef BOOLEAN (WINAPI *RtlGenRandomFn)(PVOID, ULONG);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  static RtlGenRandomFn gen;
  if (!gen) {
    HMODULE h = LoadLibraryA("advapi32.dll");
    if (!h) return FALSE;
    gen = (RtlGenRandomFn)GetProcAddress(h, "SystemFunction036");
    if (!gen) return FALSE;
  }
  while (len > 0) {
    ULONG chunk = len > 0x7fffffff ? 0x7fffffff : (ULONG)len;
    if (!gen(data, chunk)) return FALSE;
    data += chunk;
    len -= chunk;
  }
  return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE h, DWORD reason, LPVOID reserved) { return TRUE; }
