# net_embed.cmake: the compiled-in network (net.h) as a C array, agents/net_default.net's
# text written again by embed_text.cmake whenever the file changes (replace the file with
# another network of its format, and the build embeds that one). Included by the main build
# (agents/CMakeLists.txt) and the fuzz build (fuzz/CMakeLists.txt), which compile net.c alike.
#
#   include(.../agents/net_embed.cmake)
#   anywoli_embed_net(VAR)      # VAR: the generated source, to add to a target's sources
set(ANYWOLI_NET_DIR ${CMAKE_CURRENT_LIST_DIR})

function(anywoli_embed_net out_var)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/net_default_data.c)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DIN=${ANYWOLI_NET_DIR}/net_default.net -DOUT=${out}
            -DNAME=net_default -P ${ANYWOLI_NET_DIR}/embed_text.cmake
    DEPENDS ${ANYWOLI_NET_DIR}/net_default.net ${ANYWOLI_NET_DIR}/embed_text.cmake
    COMMENT "Embedding agents/net_default.net"
    VERBATIM)
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()
