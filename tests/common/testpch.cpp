// The donor translation unit of the test programs' precompiled headers (tests/CMakeLists.txt).
