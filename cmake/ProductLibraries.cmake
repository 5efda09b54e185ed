# How the product's libraries are built: each core layer, the widgets and the main window are linked
# once, as shared libraries, and every test program links them; the two executables link their objects.
# (Statically linked, each of the ~180 test programs carried its own copy of the whole product and its
# debug information: 176 MB per GUI test, 12 GB of build folder, most of the build spent in the linker.)
#
# The fuzz build keeps static libraries: its harnesses are copied and run on their own.
include(GNUInstallDirs)

if(LANESCOPE_FUZZ)
  set(LANESCOPE_LIBRARY_TYPE STATIC)
else()
  set(LANESCOPE_LIBRARY_TYPE SHARED)
endif()

# In the build tree all of them sit in one folder (build/lib), found by the build RPATH.
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)

# Not installed: the executables carry the same objects themselves (app/CMakeLists.txt,
# lanescope_self_contained), so the libraries serve the build tree's test programs only.

# Every product library: no undefined symbols left for the executable to supply (a layer links what it
# uses, which keeps the one-direction layering honest at link time too). Sanitizer builds leave the
# sanitizer runtime's symbols to the executable, so the check is off there.
function(lanescope_product_library target)
  # No <target>_EXPORTS macro (nothing uses it, and it would make each library's precompiled header
  # differ from the one the main window library and lanescope-cli reuse).
  set_target_properties(${target} PROPERTIES DEFINE_SYMBOL "")
  if(LANESCOPE_LIBRARY_TYPE STREQUAL SHARED)
    if(NOT LANESCOPE_SANITIZE)
      target_link_options(${target} PRIVATE LINKER:--no-undefined)
    endif()
  endif()
endfunction()
