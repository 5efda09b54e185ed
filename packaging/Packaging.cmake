# Desktop integration (launcher, file types, icon, AppStream metadata) and the Debian package that
# `make package` builds with CPack. Included once from the top-level CMakeLists.txt.
include(GNUInstallDirs)

set(LANESCOPE_PACKAGING_DIR ${CMAKE_CURRENT_LIST_DIR})
install(FILES ${LANESCOPE_PACKAGING_DIR}/lanescope.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${LANESCOPE_PACKAGING_DIR}/lanescope-mime.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME lanescope.xml)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/lanescope.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${LANESCOPE_PACKAGING_DIR}/io.github.lanescope.Lanescope.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lanescope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Lanescope")
set(CPACK_PACKAGE_CONTACT "Lanescope maintainers <lanescope@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Timeline viewer for ML profiles (PyTorch/Kineto, AWS Neuron)")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
       "Lanescope shows PyTorch profiler (Kineto / Chrome trace JSON) files and AWS Neuron device\n"
       "profiles (NTFF, NEFF, neuron-profile JSON) on one zoomable timeline. lanescope-cli prints the\n"
       "same numbers without a display and renders timeline screenshots headless.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/lanescope/lanescope")
# shared-mime-info and desktop-file-utils update their caches through dpkg triggers on the
# directories above, so the package needs no maintainer scripts.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "shared-mime-info, desktop-file-utils, hicolor-icon-theme")

# Library dependencies: computed by dpkg-shlibdeps from the binaries when it is there (it is on any
# Debian with dpkg-dev); otherwise the Debian 12 names of what the executables link.
find_program(LANESCOPE_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(LANESCOPE_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "libc6, libstdc++6, libqt6core6, libqt6gui6, libqt6widgets6, libqt6charts6, libqt6svg6, libqt6concurrent6, libsimdjson14, libzstd1, zlib1g, libarchive13, libsqlite3-0")
endif()

include(CPack)
