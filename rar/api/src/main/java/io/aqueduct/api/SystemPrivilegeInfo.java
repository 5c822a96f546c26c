package io.aqueduct.api;

/**
 * A system privilege granted to {@code grantee} (a user or {@code PUBLIC}).
 *
 * @param adminOption whether the grantee may grant it on to others and revoke it
 */
public record SystemPrivilegeInfo(String grantee, SystemPrivilege privilege, boolean adminOption) {
}
