# How the product's libraries are built and installed: each core layer, the widgets and the main
# window are linked once, as shared libraries, and both executables and every test program link them.
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

# Installed in a private folder (they are no public API), found by the executables through RUNPATH;
# relative to the executable, so an unpacked package runs from wherever it lies.
set(LANESCOPE_INSTALL_LIBDIR ${CMAKE_INSTALL_LIBDIR}/lanescope)
file(RELATIVE_PATH LANESCOPE_BIN_TO_LIB /${CMAKE_INSTALL_BINDIR} /${LANESCOPE_INSTALL_LIBDIR})
set(CMAKE_INSTALL_RPATH "$ORIGIN/${LANESCOPE_BIN_TO_LIB};$ORIGIN")

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
    install(TARGETS ${target} LIBRARY DESTINATION ${LANESCOPE_INSTALL_LIBDIR} NAMELINK_SKIP)
  endif()
endfunction()
