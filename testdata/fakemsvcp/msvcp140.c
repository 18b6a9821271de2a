/* A stand-in msvcp140.dll for the Wine tests: no code of the real runtime, only a version resource
   (version.rc) with the version each test asks for, so gpuwiz's reading of the copy that loads can be
   checked. Built with x86_64-w64-mingw32-gcc during the tests. */
#include <windows.h>

BOOL WINAPI DllMain(HINSTANCE h, DWORD reason, LPVOID reserved) { return TRUE; }
