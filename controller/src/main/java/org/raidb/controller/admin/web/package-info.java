/**
 * The web console on the admin port: a login page that opens a cookie session, the console's pages and scripts
 * (plain HTML, CSS and JavaScript modules shipped as resources), and the check that lets a session's requests use
 * the admin API in place of HTTP Basic, with a CSRF token on every state-changing one. The pages read and act
 * through the admin API's own endpoints; nothing here knows about virtual databases or backends.
 */
package org.raidb.controller.admin.web;
