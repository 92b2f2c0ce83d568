package org.raidb.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CompletionPolicyTest {
    @Test
    void requiredAnswers() {
        assertThat(CompletionPolicy.FIRST.required(3)).isEqualTo(1);
        assertThat(CompletionPolicy.MAJORITY.required(3)).isEqualTo(2);
        assertThat(CompletionPolicy.MAJORITY.required(4)).isEqualTo(3);
        assertThat(CompletionPolicy.MAJORITY.required(1)).isEqualTo(1);
        assertThat(CompletionPolicy.ALL.required(3)).isEqualTo(3);
        assertThat(CompletionPolicy.FIRST.required(0)).isEqualTo(0);
    }

    @Test
    void parsesConfigurationSpelling() {
        assertThat(CompletionPolicy.byName("majority")).isEqualTo(CompletionPolicy.MAJORITY);
        assertThatThrownBy(() -> CompletionPolicy.byName("most")).hasMessageContaining("use first, majority or all");
    }
}
