# Writes <OUT>/cesium_no_image.gltf: cesium_man.gltf whose texture refers to an image file that is not
# beside it (what happens when a .gltf is copied without its images).
# Usage: cmake -DSRC=<cesium_man.gltf> -DOUT=<folder> -P make_missing_texture.cmake
file(READ ${SRC} doc)
string(JSON doc SET "${doc}" images 0 "{\"uri\": \"CesiumMan_img0.jpg\"}")
file(MAKE_DIRECTORY ${OUT})
file(WRITE ${OUT}/cesium_no_image.gltf "${doc}")
