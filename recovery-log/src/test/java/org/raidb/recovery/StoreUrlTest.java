package org.raidb.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StoreUrlTest {

    @Test
    void anEmbeddedH2StoreIsLeftForTheLogToClose() {
        assertThat(StoreUrl.forConnecting("jdbc:h2:file:/var/lib/raidb/recovery-log/shop;WRITE_DELAY=0"))
                .isEqualTo("jdbc:h2:file:/var/lib/raidb/recovery-log/shop;WRITE_DELAY=0;DB_CLOSE_ON_EXIT=FALSE");
        assertThat(StoreUrl.forConnecting("jdbc:h2:./log")).isEqualTo("jdbc:h2:./log;DB_CLOSE_ON_EXIT=FALSE");
        assertThat(StoreUrl.forConnecting("jdbc:h2:mem:log;DB_CLOSE_DELAY=-1"))
                .isEqualTo("jdbc:h2:mem:log;DB_CLOSE_DELAY=-1;DB_CLOSE_ON_EXIT=FALSE");
    }

    @Test
    void aUrlThatDecidesItselfOrANonEmbeddedStoreIsUsedAsWritten() {
        assertThat(StoreUrl.forConnecting("jdbc:h2:file:/x;db_close_on_exit=true"))
                .isEqualTo("jdbc:h2:file:/x;db_close_on_exit=true");
        assertThat(StoreUrl.forConnecting("jdbc:h2:tcp://logs:9092/shop")).isEqualTo("jdbc:h2:tcp://logs:9092/shop");
        assertThat(StoreUrl.forConnecting("jdbc:h2:ssl://logs/shop")).isEqualTo("jdbc:h2:ssl://logs/shop");
        assertThat(StoreUrl.forConnecting("jdbc:postgresql://db/log")).isEqualTo("jdbc:postgresql://db/log");
        assertThat(StoreUrl.forConnecting("jdbc:mariadb://db/log")).isEqualTo("jdbc:mariadb://db/log");
    }
}
